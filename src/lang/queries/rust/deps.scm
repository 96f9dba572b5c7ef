; File-level dependencies for the impact graph.
;   @dep.mod      `mod name;` (a declaration without a body; #[path] read from its attributes)
;   @dep.use      the path of a `use` declaration
;   @dep.include  the string of include!/include_str!/include_bytes!
(mod_item name: (identifier) @dep.mod !body) @dep
(use_declaration argument: (_) @dep.use) @dep
(macro_invocation
  macro: (identifier) @_m
  (token_tree (string_literal) @dep.include)
  (#match? @_m "^include(_str|_bytes)?$")) @dep
