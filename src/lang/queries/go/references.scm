; Go references. Capture conventions: see src/lang/extract.ts.

(call_expression function: (identifier) @ref.call)
(call_expression function: (selector_expression operand: (_) @qualifier field: (field_identifier) @ref.call))
(call_expression function: (index_expression operand: (identifier) @ref.call))
(type_conversion_expression type: (generic_type type: (type_identifier) @ref.call))

(assignment_statement left: (expression_list (identifier) @ref.write))
(assignment_statement left: (expression_list (selector_expression operand: (_) @qualifier field: (field_identifier) @ref.write)))
(short_var_declaration left: (expression_list (identifier) @ref.write))
(inc_statement (identifier) @ref.write)
(dec_statement (identifier) @ref.write)
; `s.n++` writes n as `n++` does (a field increment was a read).
(inc_statement (selector_expression operand: (_) @qualifier field: (field_identifier) @ref.write))
(dec_statement (selector_expression operand: (_) @qualifier field: (field_identifier) @ref.write))
(var_spec name: (identifier) @ref.write)
(range_clause left: (expression_list (identifier) @ref.write))

(type_identifier) @ref.type
(qualified_type package: (package_identifier) @qualifier name: (type_identifier) @ref.type)

(selector_expression operand: (_) @qualifier field: (field_identifier) @ref.read)
(keyed_element . (literal_element (identifier) @ref.ignore))
(identifier) @ref.read

; Names that are not references to anything outside.
(parameter_declaration name: (identifier) @ref.ignore)
(variadic_parameter_declaration name: (identifier) @ref.ignore)
(type_parameter_declaration name: (identifier) @ref.ignore)
(labeled_statement label: (label_name) @ref.ignore)
; The blank identifier (`_, err := f()`, `_ = x`) names nothing.
((identifier) @ref.ignore (#eq? @ref.ignore "_"))

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references.
; `@local.type`: the type the declaration writes, which says whose member `name.M()` is
; (resolve.ts, receiver_type).
(parameter_declaration name: (identifier) @local type: (_) @local.type)
(variadic_parameter_declaration name: (identifier) @local)
(short_var_declaration left: (expression_list (identifier) @local)) @local.after
; `x := Foo{}`, `x := &Foo{}`: the literal's type.
(short_var_declaration left: (expression_list . (identifier) @local .) right: (expression_list . [(composite_literal type: (_) @local.type) (unary_expression operand: (composite_literal type: (_) @local.type))] .)) @local.after
; `w := httptest.NewRecorder()`, `req, err := http.NewRequest(...)`: what a package's function
; returns (`@local.returns`: a library package's function returns a library type).
(short_var_declaration left: (expression_list . (identifier) @local) right: (expression_list . (call_expression function: (selector_expression operand: (identifier) field: (field_identifier)) @local.returns) .)) @local.after
; (And a function of the package, `s := NewServer()`: its declared result type.)
(short_var_declaration left: (expression_list . (identifier) @local) right: (expression_list . (call_expression function: (identifier) @local.returns) .)) @local.after
(var_spec name: (identifier) @local type: (_)? @local.type) @local.after
(const_spec name: (identifier) @local) @local.after
(range_clause left: (expression_list (identifier) @local))
; An element of a collection local: `for _, item := range items` with items a `[]Item` (a map's
; value with `map[K]Item`) is an Item.
(range_clause left: (expression_list . (_) . (identifier) @local .) right: (identifier) @local.elem.of)
; `switch v := x.(type)`: v is bound in the cases, after the switched value (which may name an outer v).
(type_switch_statement alias: (expression_list (identifier) @local) value: (_) @local.after)
; `case v := <-ch:` binds v in its case (`case v = <-ch:` assigns an outer v).
(receive_statement left: (expression_list (identifier) @local) ":=") @local.after
[(block) (function_declaration) (method_declaration) (func_literal) (for_statement) (if_statement) (expression_switch_statement) (type_switch_statement) (communication_case)] @local.scope
