; JavaScript references. Capture conventions: see src/lang/extract.ts.
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

; JSX components: <Foo/>, <Foo.Bar>
(jsx_opening_element name: (identifier) @ref.call)
(jsx_self_closing_element name: (identifier) @ref.call)
(jsx_opening_element name: (member_expression object: (_) @qualifier property: (property_identifier) @ref.call))
(jsx_self_closing_element name: (member_expression object: (_) @qualifier property: (property_identifier) @ref.call))
(jsx_closing_element name: (_) @ref.ignore)
(jsx_closing_element name: (member_expression property: (property_identifier) @ref.ignore))
(jsx_attribute (property_identifier) @ref.ignore)

(member_expression object: (_) @qualifier property: [(property_identifier) (private_property_identifier)] @ref.read)
(shorthand_property_identifier) @ref.read
(identifier) @ref.read

; Names that are not references to anything outside.
(formal_parameters (identifier) @ref.ignore)
(formal_parameters (assignment_pattern left: (identifier) @ref.ignore))
(arrow_function parameter: (identifier) @ref.ignore)
(catch_clause parameter: (identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)
