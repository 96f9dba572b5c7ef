; C definitions. Capture conventions: see src/lang/extract.ts. Earlier patterns win.
; Declarators nest (pointers, arrays, function pointers); the patterns spell out the shapes
; met in practice, as queries cannot recurse.

(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro

; Functions.
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @def.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @def.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @def.function

; Types. A typedef of a struct defined in place names only its declarator, so the struct
; is not nested in the typedef.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum
(enumerator name: (identifier) @name) @def.enum_member
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
  ]) @def.field

; Variables at file scope (also inside #if blocks).
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

; `extern int x;` declares, it does not define.
(declaration (storage_class_specifier) @_extern (#eq? @_extern "extern")) @flag.extern
