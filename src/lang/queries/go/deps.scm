; File-level dependencies for the impact graph: each import path.
(import_spec path: (_) @dep.static) @dep
