; JavaScript references. Capture conventions: see src/lang/extract.ts.
; Wildcard parents below the root: see symbols.scm.

; One pattern per parent type, alternatives for the child: each named parent step costs
; tree-sitter a pass over the parse table when the query is compiled.
(call_expression
  function: [
    (identifier) @ref.call
    (_ object: (_) @qualifier property: (_) @ref.call)
  ])
(new_expression
  constructor: [
    (identifier) @ref.call
    (_ object: (_) @qualifier property: (property_identifier) @ref.call)
  ])

(assignment_expression left: [(identifier) @ref.write (_ object: (_) @qualifier property: (_) @ref.write)])
(augmented_assignment_expression left: [(identifier) @ref.write (_ object: (_) @qualifier property: (_) @ref.write)])
; The argument is update_expression's only named child.
(update_expression (identifier) @ref.write)
; `this.n++` writes n as `n++` does (a member increment was a read).
(update_expression (member_expression object: (_) @qualifier property: (_) @ref.write))
(variable_declarator name: (identifier) @ref.write value: (_))

; JSX components: <Foo/>, <Foo.Bar>
(jsx_opening_element name: [(identifier) @ref.call (_ object: (_) @qualifier property: (property_identifier) @ref.call)])
(jsx_self_closing_element name: [(identifier) @ref.call (_ object: (_) @qualifier property: (property_identifier) @ref.call)])
(jsx_closing_element name: (_) @ref.ignore)
(jsx_closing_element name: (_ property: (property_identifier) @ref.ignore))
(jsx_attribute (property_identifier) @ref.ignore)

; A member_expression's property is a property_identifier or a private_property_identifier.
(member_expression object: (_) @qualifier property: (_) @ref.read)
(shorthand_property_identifier) @ref.read
(identifier) @ref.read

; Names that are not references to anything outside.
(formal_parameters (identifier) @ref.ignore)
(formal_parameters (assignment_pattern left: (identifier) @ref.ignore))
(arrow_function parameter: (identifier) @ref.ignore)
(catch_clause parameter: (identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references.
(formal_parameters (identifier) @local)
(formal_parameters [(object_pattern) (array_pattern) (rest_pattern) (assignment_pattern)] @local.pattern)
(arrow_function parameter: (identifier) @local)
(catch_clause parameter: (identifier) @local)
(lexical_declaration (variable_declarator name: (identifier) @local))
; `const q = new QueryBuilder()`: whose member `q.m()` is (resolve.ts, receiver_type).
(lexical_declaration (variable_declarator name: (identifier) @local value: (new_expression constructor: [(identifier) (member_expression)] @local.type)))
(lexical_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @local.pattern))
(variable_declaration (variable_declarator name: (identifier) @local.var))
(variable_declaration (variable_declarator name: (identifier) @local.var value: (new_expression constructor: [(identifier) (member_expression)] @local.type)))
; `@local.call`: `const x = f(...)` has f's declared return type (a JSDoc-less function has none).
(lexical_declaration (variable_declarator name: (identifier) @local value: (call_expression function: (identifier) @local.call)))
(variable_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @local.var.pattern))
(for_in_statement kind: ["let" "const"] left: (identifier) @local)
(for_in_statement kind: ["let" "const"] left: [(object_pattern) (array_pattern)] @local.pattern)
(for_in_statement kind: "var" left: (identifier) @local.var)
[(function_declaration) (function_expression) (arrow_function) (method_definition) (generator_function_declaration) (generator_function)] @local.fscope
[(statement_block) (for_statement) (for_in_statement) (catch_clause)] @local.scope
(class_body) @local.stop

; Decorators are applied where the class is made, not when what they decorate runs: their
; references are the enclosing scope's (extract.ts).
(decorator) @decorator
