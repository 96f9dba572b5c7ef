; Go definitions. Capture conventions: see src/lang/extract.ts.
; A method's scope is its receiver's type (`func (s *S) M()` -> scope ["S"]). A lone
; `type X ...` / `const X` / `var X` declaration spans the keyword; grouped ones span their spec.
; Earlier patterns win.

(function_declaration name: (identifier) @name) @def.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (pointer_type (type_identifier) @scope)
        (generic_type type: (type_identifier) @scope)
        (pointer_type (generic_type type: (type_identifier) @scope))
      ]))
  name: (field_identifier) @name) @def.method
(method_declaration name: (field_identifier) @name) @def.method

(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @def.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @def.interface
(type_declaration . (type_spec name: (type_identifier) @name) .) @def.type_alias
(type_declaration . (type_alias name: (type_identifier) @name) .) @def.type_alias
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type_alias
(type_alias name: (type_identifier) @name) @def.type_alias

; Fields of named struct types (those of anonymous struct literals are not symbols).
(type_spec type: (struct_type (field_declaration_list (field_declaration name: (field_identifier) @name) @def.field)))
(interface_type (method_elem name: (field_identifier) @name) @def.method)

; `var _ Flag = (*BoolFlag)(nil)` (the blank identifier) declares nothing.
; (`const KB, MB = 1 << 10, 1 << 20`: the grammar puts the commas in the `name` field too, and a
; field pattern meets only the field's first node: B of `A, B = 1, 2` was no symbol. A const_spec's
; own identifiers are its names, as its values are in an expression_list and its type is a type.)
(source_file (const_declaration . (const_spec (identifier) @name) .) @def.constant (#not-eq? @name "_"))
((const_spec (identifier) @name) @def.constant (#not-eq? @name "_"))
(source_file (var_declaration . (var_spec name: (identifier) @name) .) @def.variable (#not-eq? @name "_"))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable) (#not-eq? @name "_"))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.variable)) (#not-eq? @name "_"))

; The name a method's body calls its receiver by (`m` in `func (m *model) View()`): `m.x` there is
; the receiver type's member.
(method_declaration receiver: (parameter_list (parameter_declaration name: (identifier) @receiver))) @receiver.of

; A field's declared type when it names one type (resolution follows `m.pager.View()` through it).
(field_declaration name: (_) type: [(type_identifier) (qualified_type) (generic_type) (pointer_type [(type_identifier) (qualified_type) (generic_type)])] @type) @type.of
; A function's result type, or its first result's (`(*Server, error)`): what `s := NewServer()` holds.
([(function_declaration result: [(type_identifier) (qualified_type) (generic_type) (pointer_type [(type_identifier) (qualified_type) (generic_type)])] @type) (method_declaration result: [(type_identifier) (qualified_type) (generic_type) (pointer_type [(type_identifier) (qualified_type) (generic_type)])] @type)]) @type.of
([(function_declaration result: (parameter_list . (parameter_declaration type: [(type_identifier) (qualified_type) (generic_type) (pointer_type [(type_identifier) (qualified_type) (generic_type)])] @type))) (method_declaration result: (parameter_list . (parameter_declaration type: [(type_identifier) (qualified_type) (generic_type) (pointer_type [(type_identifier) (qualified_type) (generic_type)])] @type)))]) @type.of

; An embedded field (`struct { *common; ... }`): its type's methods and fields are promoted, as a
; base class's are inherited.
(type_declaration . (type_spec type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base)))) .) @base.of
(type_spec type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base)))) @base.of
