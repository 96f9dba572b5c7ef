; C++ definitions. Capture conventions: see src/lang/extract.ts. Earlier patterns win.
; Declarators nest (pointers, arrays, function pointers); the patterns spell out the shapes
; met in practice, as queries cannot recurse.
;
; Below a pattern's root, declarator nodes are written as wildcards with the fields and tokens
; that only they have in that position: `(_ declarator: X parameters: (_))` is a
; function_declarator, `(_ "*" declarator: X)` a pointer_declarator, `(_ declarator: X "[")` an
; array_declarator, `(_ declarator: X value: (_))` an init_declarator. They match the same nodes,
; but tree-sitter analyses every named parent step of a query against the parse table when it
; compiles it, and wildcard steps are skipped: the C++ query compiles in ~0.35 s instead of ~1.2 s.

(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro
; A macro that renames (zlib's `#define deflate z_deflate` under Z_PREFIX): a call by its name
; reaches the function of that name either way, which resolution prefers (see pick()).
(preproc_def value: (preproc_arg) @_value (#match? @_value "^\\s*[A-Za-z_][A-Za-z0-9_]*\\s*$")) @flag.alias

; Methods defined or declared in a class body (a field_identifier names a member wherever it
; sits, also under #ifdef); constructors and destructors.
(function_definition declarator: (_ declarator: (field_identifier) @name parameters: (_))) @def.method
(function_definition declarator: (_ "*" declarator: (_ declarator: (field_identifier) @name parameters: (_)))) @def.method
(function_definition declarator: (_ "*" declarator: (_ "*" declarator: (_ declarator: (field_identifier) @name parameters: (_))))) @def.method
(function_definition declarator: (reference_declarator (_ declarator: (field_identifier) @name parameters: (_)))) @def.method
(function_definition declarator: (_ "*" declarator: (reference_declarator (_ declarator: (field_identifier) @name parameters: (_))))) @def.method
(field_declaration_list (function_definition declarator: (_ declarator: (identifier) @name parameters: (_))) @def.constructor)
; A destructor is a method (`find --kind ctor` listed `~Counter`).
(field_declaration_list (function_definition declarator: (_ declarator: (destructor_name) @name parameters: (_))) @def.method)
(field_declaration_list (function_definition declarator: (_ declarator: (operator_name) @name parameters: (_))) @def.method)
(field_declaration_list (template_declaration (function_definition declarator: (_ declarator: [(field_identifier) (operator_name)] @name parameters: (_))) @def.method))
(field_declaration_list (template_declaration (function_definition !type declarator: (_ declarator: (identifier) @name parameters: (_))) @def.constructor))
; A member function template reads its name as an identifier, like a constructor; it has a return type.
(field_declaration_list (template_declaration (function_definition type: (_) declarator: (_ declarator: (identifier) @name parameters: (_))) @def.method))
(field_declaration_list (template_declaration (declaration type: (_) declarator: (_ declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (_))) @def.method @flag.declaration))
; Operators returning a pointer or reference, defined in the class body.
(field_declaration_list (function_definition declarator: (_ "*" declarator: (_ declarator: (operator_name) @name parameters: (_)))) @def.method)
(field_declaration_list (function_definition declarator: (reference_declarator (_ declarator: (operator_name) @name parameters: (_)))) @def.method)
(field_declaration declarator: (_ declarator: [(field_identifier) (operator_name)] @name parameters: (_))) @def.method @flag.declaration
(field_declaration declarator: (_ "*" declarator: (_ declarator: (field_identifier) @name parameters: (_)))) @def.method @flag.declaration
(field_declaration declarator: (reference_declarator (_ declarator: (field_identifier) @name parameters: (_)))) @def.method @flag.declaration
(field_declaration_list (declaration declarator: (_ declarator: (identifier) @name parameters: (_))) @def.constructor @flag.declaration)
(field_declaration_list (declaration declarator: (_ declarator: (destructor_name) @name parameters: (_))) @def.method @flag.declaration)

; Conversion operators, named `operator T` as written.
(function_definition declarator: (operator_cast type: (_) @name) @name.start) @def.method
(field_declaration declarator: (operator_cast type: (_) @name) @name.start) @def.method @flag.declaration
(declaration declarator: (operator_cast type: (_) @name) @name.start) @def.method @flag.declaration

; Out-of-line constructors `DBImpl::DBImpl(...) : ... {}`, `Foo<T>::Foo()`, `a::B::B()`: no return
; type, and the name is the class's (they were methods: `find --kind ctor` missed leveldb's).
(function_definition !type declarator: (_ declarator: (qualified_identifier scope: (namespace_identifier) @_class name: (identifier) @_name (#eq? @_class @_name)) @name.qualified parameters: (_))) @def.constructor
(function_definition !type declarator: (_ declarator: (qualified_identifier scope: (template_type name: (type_identifier) @_class) name: (identifier) @_name (#eq? @_class @_name)) @name.qualified parameters: (_))) @def.constructor
(function_definition !type declarator: (_ declarator: (qualified_identifier name: (qualified_identifier scope: (namespace_identifier) @_class name: (identifier) @_name (#eq? @_class @_name))) @name.qualified parameters: (_))) @def.constructor
; Out-of-line definitions `void A::B::f() {}`: the qualifier becomes scope.
(function_definition declarator: (_ declarator: (qualified_identifier) @name.qualified parameters: (_))) @def.method
(function_definition declarator: (_ "*" declarator: (_ declarator: (qualified_identifier) @name.qualified parameters: (_)))) @def.method
(function_definition declarator: (_ "*" declarator: (_ "*" declarator: (_ declarator: (qualified_identifier) @name.qualified parameters: (_))))) @def.method
(function_definition declarator: (reference_declarator (_ declarator: (qualified_identifier) @name.qualified parameters: (_)))) @def.method
(function_definition declarator: (_ "*" declarator: (reference_declarator (_ declarator: (qualified_identifier) @name.qualified parameters: (_))))) @def.method

; Functions.
(function_definition declarator: (_ declarator: [(identifier) (operator_name)] @name parameters: (_))) @def.function
(function_definition declarator: (_ "*" declarator: (_ declarator: [(identifier) (operator_name)] @name parameters: (_)))) @def.function
(function_definition declarator: (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (operator_name)] @name parameters: (_))))) @def.function
(function_definition declarator: (reference_declarator (_ declarator: [(identifier) (operator_name)] @name parameters: (_)))) @def.function
(function_definition declarator: (_ "*" declarator: (reference_declarator (_ declarator: [(identifier) (operator_name)] @name parameters: (_))))) @def.function
(function_definition declarator: (_ declarator: (template_function name: (identifier) @name) parameters: (_))) @def.function

; Types. A typedef of a struct defined in place names only its declarator, so the struct
; is not nested in the typedef.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum
(enumerator name: (identifier) @name) @def.enum_member
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.struct
(class_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.class
; A nested class defined outside its class, `class VersionSet::Builder {` (leveldb): the qualifier is
; its scope (it and its members were lost, the members taken for the namespace's).
(struct_specifier name: (qualified_identifier) @name.qualified body: (field_declaration_list)) @def.struct
(class_specifier name: (qualified_identifier) @name.qualified body: (field_declaration_list)) @def.class
(union_specifier name: (qualified_identifier) @name.qualified body: (field_declaration_list)) @def.union
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @def.namespace
(alias_declaration name: (type_identifier) @name) @def.type_alias
; The type an alias names (`using OptionNames = std::vector<std::string>;`, `typedef std::map<K, V>
; Values;`): a local declared of the alias is one of that type (resolve.ts).
(alias_declaration type: (type_descriptor type: [(type_identifier) (qualified_identifier) (template_type)] @type .)) @type.of
(type_definition type: [(type_identifier) (qualified_identifier) (template_type)] @type declarator: (type_identifier)) @type.of
; A member's declared type (`sink *sink_;`, `Formatter &f;`, `std::vector<int> v;`): what `sink_->flush()` is called on.
(field_declaration type: [(type_identifier) (qualified_identifier) (template_type)] @type declarator: [(field_identifier) (_ "*" declarator: (field_identifier)) (reference_declarator (field_identifier))]) @type.of
(concept_definition name: (identifier) @name) @def.type_alias
(type_definition type: (_ body: (_)) declarator: (type_identifier) @name @def.type_alias)
(type_definition type: (_ body: (_)) declarator: (_ "*" declarator: (type_identifier) @name) @def.type_alias)
(type_definition declarator: [
  (type_identifier) @name
  (_ "*" declarator: (type_identifier) @name)
  (_ "*" declarator: (_ "*" declarator: (type_identifier) @name))
  (_ declarator: (type_identifier) @name "[")
  (_ declarator: (parenthesized_declarator (_ "*" declarator: (type_identifier) @name)) parameters: (_))
  (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
  (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (type_identifier) @name)) parameters: (_))))
  (_ declarator: (type_identifier) @name parameters: (_))
  ; A function type whose name is in parentheses, `typedef void (ctor_f)(void*)` (uthash's ctor_f):
  ; no `*`, so none of the pointer shapes above.
  (_ declarator: (parenthesized_declarator (type_identifier) @name) parameters: (_))
  (_ "*" declarator: (_ declarator: (parenthesized_declarator (type_identifier) @name) parameters: (_)))
]) @def.type_alias

; Struct, union and class members (a field_declaration is a member wherever it sits, also under #if).
(field_declaration declarator: [
    (field_identifier) @name
    (_ "*" declarator: (field_identifier) @name)
    (_ "*" declarator: (_ "*" declarator: (field_identifier) @name))
    (_ declarator: (field_identifier) @name "[")
    (_ declarator: (_ declarator: (field_identifier) @name "[") "[")
    (_ "*" declarator: (_ declarator: (field_identifier) @name "["))
    (_ declarator: (parenthesized_declarator (_ "*" declarator: (field_identifier) @name)) parameters: (_))
    (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (field_identifier) @name)) parameters: (_)))
    (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (field_identifier) @name)) parameters: (_))))
    (reference_declarator (field_identifier) @name)
  ]) @def.field

; Variables at file scope (also inside #if blocks and namespaces).
(translation_unit (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable)
(preproc_ifdef (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable @nonlocal)
(preproc_if (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable @nonlocal)
(preproc_else (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable @nonlocal)
(preproc_elif (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable @nonlocal)
(declaration_list (declaration declarator: [
      (identifier) @name
      (_ declarator: (identifier) @name value: (_))
      (_ "*" declarator: (identifier) @name)
      (_ declarator: (_ "*" declarator: (identifier) @name) value: (_))
      (_ "*" declarator: (_ "*" declarator: (identifier) @name))
      (_ declarator: (_ "*" declarator: (_ "*" declarator: (identifier) @name)) value: (_))
      (_ declarator: (identifier) @name "[")
      (_ declarator: (_ declarator: (identifier) @name "[") value: (_))
      (_ declarator: (_ declarator: (identifier) @name "[") "[")
      (_ declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[") value: (_))
      (_ "*" declarator: (_ declarator: (identifier) @name "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (identifier) @name "[")) value: (_))
      (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "["))
      (_ declarator: (_ "*" declarator: (_ declarator: (_ declarator: (identifier) @name "[") "[")) value: (_))
      (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))
      (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))))
      (_ declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_)) value: (_))
      (_ declarator: (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @name)) parameters: (_))) value: (_))
    ]) @def.variable)

; `extern int x;` declares, it does not define.
(declaration (storage_class_specifier) @_extern (#eq? @_extern "extern")) @flag.extern

; Base classes (resolution finds inherited members through them).
(class_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @base.of
(struct_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @base.of
