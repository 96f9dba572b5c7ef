; C++ references. Capture conventions: see src/lang/extract.ts.

; @args: the argument list, whose length tells overloads apart (extract.ts argumentCount).
(call_expression function: (identifier) @ref.call arguments: (_) @args)
(call_expression function: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.call) arguments: (_) @args)
(call_expression function: (qualified_identifier scope: (_) @qualifier name: (identifier) @ref.call) arguments: (_) @args)
(call_expression function: (template_function name: (identifier) @ref.call) arguments: (_) @args)
(call_expression function: (qualified_identifier scope: (_) @qualifier name: (template_function name: (identifier) @ref.call)) arguments: (_) @args)
(call_expression function: (field_expression argument: (_) @qualifier field: (template_method name: (field_identifier) @ref.call)) arguments: (_) @args)
(new_expression type: (type_identifier) @ref.call arguments: (_)? @args)

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.write))
(update_expression argument: (identifier) @ref.write)
; `s->n++` writes n as `n++` does (a field increment was a read).
(update_expression argument: (field_expression argument: (_) @qualifier field: (field_identifier) @ref.write))
(init_declarator declarator: (identifier) @ref.write)

(type_identifier) @ref.type
(qualified_identifier scope: (_) @qualifier name: (type_identifier) @ref.type)
(namespace_identifier) @ref.read

(field_expression argument: (_) @qualifier field: (field_identifier) @ref.read)
(qualified_identifier scope: (_) @qualifier name: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameter_declaration declarator: (identifier) @ref.ignore)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @ref.ignore))
(parameter_declaration declarator: (reference_declarator (identifier) @ref.ignore))
(optional_parameter_declaration declarator: (identifier) @ref.ignore)
(optional_parameter_declaration declarator: (reference_declarator (identifier) @ref.ignore))
(type_parameter_declaration (type_identifier) @ref.ignore)
(preproc_params (identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)
(namespace_definition name: (_) @ref.ignore)
(nested_namespace_specifier (namespace_identifier) @ref.ignore)
; `~Mutex()`: the destructor's name, no use of the class or its constructors.
(destructor_name (identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references. `@local.type`: the type
; the declaration writes, which says whose member `name.m()` is (resolve.ts, receiver_type).
(parameter_declaration type: (_) @local.type declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local) (reference_declarator (identifier) @local)])
(optional_parameter_declaration type: (_) @local.type declarator: [(identifier) @local (reference_declarator (identifier) @local)])
(declaration type: (_)? @local.type declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local) (reference_declarator (identifier) @local)])
(init_declarator declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (array_declarator declarator: (identifier) @local) (reference_declarator (identifier) @local)])
(declaration type: (_) @local.type declarator: (init_declarator declarator: [(identifier) @local (pointer_declarator declarator: (identifier) @local) (reference_declarator (identifier) @local)]))
; Function pointers: `int (*handler)(void)`, `void *(*alloc)(size_t)`.
(parameter_declaration declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
(declaration declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
(init_declarator declarator: [(_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)) (_ "*" declarator: (_ declarator: (parenthesized_declarator (_ "*" declarator: (identifier) @local)) parameters: (_)))])
(for_range_loop type: (_) @local.type declarator: [(identifier) @local (reference_declarator (identifier) @local)])
(structured_binding_declarator (identifier) @local)
[(compound_statement) (function_definition) (for_statement) (for_range_loop) (lambda_expression) (catch_clause)] @local.scope
[(field_declaration_list) (declaration_list)] @local.stop
