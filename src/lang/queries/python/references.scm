; Python references. Capture conventions: see src/lang/extract.ts.

(call function: (identifier) @ref.call)
(call function: (attribute object: (_) @qualifier attribute: (identifier) @ref.call))
(decorator (identifier) @ref.call)
(decorator (attribute object: (_) @qualifier attribute: (identifier) @ref.call))

(assignment left: (identifier) @ref.write)
(assignment left: (attribute object: (_) @qualifier attribute: (identifier) @ref.write))
(augmented_assignment left: (identifier) @ref.write)
(augmented_assignment left: (attribute object: (_) @qualifier attribute: (identifier) @ref.write))
(pattern_list (identifier) @ref.write)
(for_statement left: (identifier) @ref.write)

(type (identifier) @ref.type)
(type (attribute object: (_) @qualifier attribute: (identifier) @ref.type))
(type (generic_type (identifier) @ref.type))
(class_definition superclasses: (argument_list (identifier) @ref.type))
(class_definition superclasses: (argument_list (attribute object: (_) @qualifier attribute: (identifier) @ref.type)))

(attribute object: (_) @qualifier attribute: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameters (identifier) @ref.ignore)
(lambda_parameters (identifier) @ref.ignore)
(default_parameter name: (identifier) @ref.ignore)
(typed_parameter (identifier) @ref.ignore)
(typed_default_parameter name: (identifier) @ref.ignore)
(list_splat_pattern (identifier) @ref.ignore)
(dictionary_splat_pattern (identifier) @ref.ignore)
(keyword_argument name: (identifier) @ref.ignore)
(dotted_name (identifier) @ref.ignore)
(aliased_import alias: (identifier) @ref.ignore)
