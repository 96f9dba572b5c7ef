; Rust references. Capture conventions: see src/lang/extract.ts.

(call_expression function: (identifier) @ref.call)
(call_expression function: (scoped_identifier path: (_) @qualifier name: (identifier) @ref.call))
(call_expression function: (field_expression value: (_) @qualifier field: (field_identifier) @ref.call))
(call_expression function: (generic_function function: (identifier) @ref.call))
(call_expression function: (generic_function function: (scoped_identifier path: (_) @qualifier name: (identifier) @ref.call)))
(call_expression function: (generic_function function: (field_expression value: (_) @qualifier field: (field_identifier) @ref.call)))
(macro_invocation macro: (identifier) @ref.call)
(macro_invocation macro: (scoped_identifier path: (_) @qualifier name: (identifier) @ref.call))

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (field_expression value: (_) @qualifier field: (field_identifier) @ref.write))
(compound_assignment_expr left: (identifier) @ref.write)
(compound_assignment_expr left: (field_expression value: (_) @qualifier field: (field_identifier) @ref.write))
(let_declaration pattern: (identifier) @ref.write)

(type_identifier) @ref.type
(scoped_type_identifier path: (_) @qualifier name: (type_identifier) @ref.type)
(struct_expression name: (type_identifier) @ref.call)

(field_expression value: (_) @qualifier field: (field_identifier) @ref.read)
(scoped_identifier path: (_) @qualifier name: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameter pattern: (identifier) @ref.ignore)
(closure_parameters (identifier) @ref.ignore)
(type_parameter name: (type_identifier) @ref.ignore)
(use_declaration argument: (identifier) @ref.ignore)
(use_declaration argument: (scoped_identifier path: (identifier) @ref.ignore))
(scoped_use_list path: (identifier) @ref.ignore)
(scoped_use_list path: (scoped_identifier path: (identifier) @ref.ignore name: (identifier) @ref.ignore))
(scoped_use_list path: (scoped_identifier name: (identifier) @ref.ignore))
(use_as_clause path: (scoped_identifier path: (identifier) @ref.ignore))
(use_wildcard (identifier) @ref.ignore)
