; C++ definitions. Capture conventions: see src/lang/extract.ts. Earlier patterns win.
; Declarators nest (pointers, arrays, function pointers); the patterns spell out the shapes
; met in practice, as queries cannot recurse.

(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro

; Methods defined or declared in a class body (a field_identifier names a member wherever it
; sits, also under #ifdef); constructors and destructors.
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @def.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))) @def.method
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name)))) @def.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name))) @def.method
(function_definition declarator: (pointer_declarator declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name)))) @def.method
(field_declaration_list (function_definition declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name)) @def.constructor)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (operator_name) @name)) @def.method)
(field_declaration_list (template_declaration (function_definition declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name)) @def.method))
(field_declaration_list (template_declaration (function_definition declarator: (function_declarator declarator: (identifier) @name)) @def.constructor))
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name)) @def.method @flag.declaration
(field_declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))) @def.method @flag.declaration
(field_declaration declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name))) @def.method @flag.declaration
(field_declaration_list (declaration declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name)) @def.constructor @flag.declaration)

; Conversion operators, named `operator T` as written.
(function_definition declarator: (operator_cast type: (_) @name) @name.start) @def.method
(field_declaration declarator: (operator_cast type: (_) @name) @name.start) @def.method @flag.declaration
(declaration declarator: (operator_cast type: (_) @name) @name.start) @def.method @flag.declaration

; Out-of-line definitions `void A::B::f() {}`: the qualifier becomes scope.
(function_definition declarator: (function_declarator declarator: (qualified_identifier) @name.qualified)) @def.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @name.qualified))) @def.method
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @name.qualified)))) @def.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (qualified_identifier) @name.qualified))) @def.method
(function_definition declarator: (pointer_declarator declarator: (reference_declarator (function_declarator declarator: (qualified_identifier) @name.qualified)))) @def.method

; Functions.
(function_definition declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)) @def.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))) @def.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)))) @def.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))) @def.function
(function_definition declarator: (pointer_declarator declarator: (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name)))) @def.function
(function_definition declarator: (function_declarator declarator: (template_function name: (identifier) @name))) @def.function

; Types. A typedef of a struct defined in place names only its declarator, so the struct
; is not nested in the typedef.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum
(enumerator name: (identifier) @name) @def.enum_member
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.struct
(class_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.class
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @def.namespace
(alias_declaration name: (type_identifier) @name) @def.type_alias
(concept_definition name: (identifier) @name) @def.type_alias
(type_definition type: (_ body: (_)) declarator: (type_identifier) @name @def.type_alias)
(type_definition type: (_ body: (_)) declarator: (pointer_declarator declarator: (type_identifier) @name) @def.type_alias)
(type_definition declarator: [
  (type_identifier) @name
  (pointer_declarator declarator: (type_identifier) @name)
  (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
  (array_declarator declarator: (type_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  (function_declarator declarator: (type_identifier) @name)
]) @def.type_alias

; Struct, union and class members (a field_declaration is a member wherever it sits, also under #if).
(field_declaration declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (reference_declarator (field_identifier) @name)
  ]) @def.field

; Variables at file scope (also inside #if blocks and namespaces).
(translation_unit (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)
(preproc_ifdef (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)
(preproc_if (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)
(preproc_else (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)
(preproc_elif (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)
(declaration_list (declaration declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @def.variable)

; `extern int x;` declares, it does not define.
(declaration (storage_class_specifier) @_extern (#eq? @_extern "extern")) @flag.extern
