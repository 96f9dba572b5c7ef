; C references. Capture conventions: see src/lang/extract.ts.

(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.call))

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.write))
(update_expression argument: (identifier) @ref.write)
; `s->n++` writes n as `n++` does (a field increment was a read).
(update_expression argument: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.write))
(init_declarator declarator: (identifier) @ref.write)

(type_identifier) @ref.type

(field_expression argument: (_) @qualifier field: (field_identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameter_declaration declarator: (identifier) @ref.ignore)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @ref.ignore))
(parameter_declaration declarator: (array_declarator declarator: (identifier) @ref.ignore))
(preproc_params (identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references. `@local.type`: the type
; the declaration writes, which says whose field `name->f` is (resolve.ts, receiver_type).
(parameter_declaration type: (_) @local.type declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local)])
(declaration type: (_) @local.type declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local)])
(init_declarator declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local)])
(declaration type: (_) @local.type declarator: (init_declarator declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local)]))
; Function pointers: `int (*handler)(void)`, `void *(*alloc)(size_t)`.
(parameter_declaration declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
(declaration declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
(init_declarator declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
[(compound_statement) (function_definition) (for_statement)] @local.scope
[(field_declaration_list)] @local.stop
