; C definitions. Capture conventions: see src/lang/extract.ts. Earlier patterns win.
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

; Functions.
(function_definition declarator: (_ declarator: (identifier) @name parameters: (_))) @def.function
(function_definition declarator: (_ "*" declarator: (_ declarator: (identifier) @name parameters: (_)))) @def.function
(function_definition declarator: (_ "*" declarator: (_ "*" declarator: (_ declarator: (identifier) @name parameters: (_))))) @def.function
(function_definition declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (_ declarator: (identifier) @name parameters: (_)))) parameters: (_))) @def.function

; Types. A typedef of a struct defined in place names only its declarator, so the struct
; is not nested in the typedef.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum
(enumerator name: (identifier) @name) @def.enum_member
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
  ]) @def.field

; Variables at file scope (also inside #if blocks).
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

; `extern int x;` declares, it does not define.
(declaration (storage_class_specifier) @_extern (#eq? @_extern "extern")) @flag.extern
