; TypeScript references (TSX: ../tsx/references.scm adds JSX). Capture conventions: see src/lang/extract.ts.
; Wildcard parents below the root: see symbols.scm.

(call_expression function: (identifier) @ref.call)
(call_expression
  function: (_
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @ref.call))
(new_expression constructor: (identifier) @ref.call)
(new_expression constructor: (_ object: (_) @qualifier property: (property_identifier) @ref.call))

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (_ object: (_) @qualifier property: (_) @ref.write))
(augmented_assignment_expression left: (identifier) @ref.write)
(augmented_assignment_expression left: (_ object: (_) @qualifier property: (_) @ref.write))
(update_expression argument: (identifier) @ref.write)
(variable_declarator name: (identifier) @ref.write value: (_))

; Types.
(type_identifier) @ref.type
(nested_type_identifier module: (_) @qualifier name: (type_identifier) @ref.type)
(type_query (identifier) @ref.type)

(member_expression object: (_) @qualifier property: [(property_identifier) (private_property_identifier)] @ref.read)
(shorthand_property_identifier) @ref.read
(identifier) @ref.read

; Names that are not references to anything outside.
(required_parameter pattern: (identifier) @ref.ignore)
(optional_parameter pattern: (identifier) @ref.ignore)
(arrow_function parameter: (identifier) @ref.ignore)
(catch_clause parameter: (identifier) @ref.ignore)
(type_parameter name: (type_identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)
