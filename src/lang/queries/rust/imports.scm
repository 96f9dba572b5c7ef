; Rust `use` declarations. Capture conventions: see src/lang/extract.ts.
; Several @import.source captures in one match are joined with "::" (nested use lists), and one
; statement gives one import per distinct source path.

(use_declaration argument: (identifier) @import.source) @import
(use_declaration argument: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)) @import
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias)) @import
(use_declaration argument: (use_as_clause path: (identifier) @import.source alias: (identifier) @import.alias)) @import
(use_declaration argument: (use_wildcard (_) @import.source) @import.wildcard) @import

(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list [(identifier) (self)] @import.name))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (scoped_identifier path: (_) @import.source name: (identifier) @import.name)))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias)))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (use_wildcard (_) @import.source) @import.wildcard))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (scoped_use_list path: (_) @import.source list: (use_list [(identifier) (self)] @import.name))))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))))) @import

; `extern crate grep_core as core2;` (ripgrep's facades: `pub extern crate grep_searcher as searcher`):
; binds core2 to the crate, as `use grep_core as core2;` does. Without the alias it binds the
; crate's own name, which a path reaches anyway.
(extern_crate_declaration name: (identifier) @import.source alias: (identifier) @import.alias) @import

; A braced list with no common path, `use {crate::{alias::Alias, attribute::{Attribute, Kind}},
; std::fmt};` (just writes its whole prelude so in src/lib.rs and tests/lib.rs): each item as the
; forms above.
(use_declaration argument: (use_list (identifier) @import.source)) @import
(use_declaration argument: (use_list (scoped_identifier path: (_) @import.source name: (identifier) @import.name))) @import
(use_declaration argument: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias))) @import
(use_declaration argument: (use_list (use_as_clause path: (identifier) @import.source alias: (identifier) @import.alias))) @import
(use_declaration argument: (use_list (use_wildcard (_) @import.source) @import.wildcard)) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list [(identifier) (self)] @import.name)))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (scoped_identifier path: (_) @import.source name: (identifier) @import.name))))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias))))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (use_wildcard (_) @import.source) @import.wildcard)))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (scoped_use_list path: (_) @import.source list: (use_list [(identifier) (self)] @import.name)))))) @import
(use_declaration argument: (use_list (scoped_use_list path: (_) @import.source list: (use_list (scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))))))) @import
