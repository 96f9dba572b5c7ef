/**
 * ripgrep's file types (-t/-T): every type of ripgrep 13's `rg --type-list`, with its globs on a
 * file's name (the walk's `types`). test/llmsearch/rg-types.test.ts compares them with the
 * installed rg: an agent that writes `-t ruby` or `-t kotlin` as it would for rg gets rg's files.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  agda: ["*.agda", "*.lagda"],
  aidl: ["*.aidl"],
  amake: ["*.bp", "*.mk"],
  asciidoc: ["*.adoc", "*.asc", "*.asciidoc"],
  asm: ["*.S", "*.asm", "*.s"],
  asp: ["*.ascx", "*.ascx.cs", "*.ascx.vb", "*.aspx", "*.aspx.cs", "*.aspx.vb"],
  ats: ["*.ats", "*.dats", "*.hats", "*.sats"],
  avro: ["*.avdl", "*.avpr", "*.avsc"],
  awk: ["*.awk"],
  bazel: ["*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"],
  bitbake: ["*.bb", "*.bbappend", "*.bbclass", "*.conf", "*.inc"],
  brotli: ["*.br"],
  buildstream: ["*.bst"],
  bzip2: ["*.bz2", "*.tbz2"],
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  cabal: ["*.cabal"],
  cbor: ["*.cbor"],
  ceylon: ["*.ceylon"],
  clojure: ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  cmake: ["*.cmake", "CMakeLists.txt"],
  coffeescript: ["*.coffee"],
  config: ["*.cfg", "*.conf", "*.config", "*.ini"],
  coq: ["*.v"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  creole: ["*.creole"],
  crystal: ["*.cr", "Projectfile"],
  cs: ["*.cs"],
  csharp: ["*.cs"],
  cshtml: ["*.cshtml"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  cython: ["*.pxd", "*.pxi", "*.pyx"],
  d: ["*.d"],
  dart: ["*.dart"],
  dhall: ["*.dhall"],
  diff: ["*.diff", "*.patch"],
  docker: ["*Dockerfile*"],
  dvc: ["*.dvc", "Dvcfile"],
  ebuild: ["*.ebuild"],
  edn: ["*.edn"],
  elisp: ["*.el"],
  elixir: ["*.eex", "*.ex", "*.exs"],
  elm: ["*.elm"],
  erb: ["*.erb"],
  erlang: ["*.erl", "*.hrl"],
  fidl: ["*.fidl"],
  fish: ["*.fish"],
  flatbuffers: ["*.fbs"],
  fortran: ["*.F", "*.F77", "*.F90", "*.F95", "*.f", "*.f77", "*.f90", "*.f95", "*.pfo"],
  fsharp: ["*.fs", "*.fsi", "*.fsx"],
  fut: [".fut"],
  gap: ["*.g", "*.gap", "*.gd", "*.gi", "*.tst"],
  gn: ["*.gn", "*.gni"],
  go: ["*.go"],
  gradle: ["*.gradle"],
  groovy: ["*.gradle", "*.groovy"],
  gzip: ["*.gz", "*.tgz"],
  h: ["*.h", "*.hpp"],
  haml: ["*.haml"],
  haskell: ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"],
  hbs: ["*.hbs"],
  hs: ["*.hs", "*.lhs"],
  html: ["*.ejs", "*.htm", "*.html"],
  idris: ["*.idr", "*.lidr"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  jinja: ["*.j2", "*.jinja", "*.jinja2"],
  jl: ["*.jl"],
  js: ["*.js", "*.jsx", "*.vue"],
  json: ["*.json", "composer.lock"],
  jsonl: ["*.jsonl"],
  julia: ["*.jl"],
  jupyter: ["*.ipynb", "*.jpynb"],
  k: ["*.k"],
  kotlin: ["*.kt", "*.kts"],
  less: ["*.less"],
  license: [
      "*[.-]LICEN[CS]E*", "AGPL-*[0-9]*", "APACHE-*[0-9]*", "BSD-*[0-9]*", "CC-BY-*", "COPYING", "COPYING[.-]*",
      "COPYRIGHT", "COPYRIGHT[.-]*", "EULA", "EULA[.-]*", "GFDL-*[0-9]*", "GNU-*[0-9]*", "GPL-*[0-9]*", "LGPL-*[0-9]*",
      "LICEN[CS]E", "LICEN[CS]E[.-]*", "MIT-*[0-9]*", "MPL-*[0-9]*", "NOTICE", "NOTICE[.-]*", "OFL-*[0-9]*", "PATENTS",
      "PATENTS[.-]*", "UNLICEN[CS]E", "UNLICEN[CS]E[.-]*", "agpl[.-]*", "gpl[.-]*", "lgpl[.-]*", "licen[cs]e",
      "licen[cs]e.*",
  ],
  lisp: ["*.el", "*.jl", "*.lisp", "*.lsp", "*.sc", "*.scm"],
  lock: ["*.lock", "package-lock.json"],
  log: ["*.log"],
  lua: ["*.lua"],
  lz4: ["*.lz4"],
  lzma: ["*.lzma"],
  m4: ["*.ac", "*.m4"],
  make: [
      "*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile",
      "[Mm]akefile.am", "[Mm]akefile.in",
  ],
  mako: ["*.mako", "*.mao"],
  man: ["*.[0-9][cEFMmpSx]", "*.[0-9lnpx]"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  matlab: ["*.m"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  meson: ["meson.build", "meson_options.txt"],
  minified: ["*.min.css", "*.min.html", "*.min.js"],
  mint: ["*.mint"],
  mk: ["mkfile"],
  ml: ["*.ml"],
  msbuild: ["*.csproj", "*.fsproj", "*.proj", "*.props", "*.targets", "*.vcxproj"],
  nim: ["*.nim", "*.nimble", "*.nimf", "*.nims"],
  nix: ["*.nix"],
  objc: ["*.h", "*.m"],
  objcpp: ["*.h", "*.mm"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  org: ["*.org", "*.org_archive"],
  pascal: ["*.dpr", "*.inc", "*.lpr", "*.pas", "*.pp"],
  pdf: ["*.pdf"],
  perl: ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  po: ["*.po"],
  pod: ["*.pod"],
  postscript: ["*.eps", "*.ps"],
  protobuf: ["*.proto"],
  ps: ["*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"],
  puppet: ["*.erb", "*.pp", "*.rb"],
  purs: ["*.purs"],
  py: ["*.py"],
  qmake: ["*.prf", "*.pri", "*.pro"],
  qml: ["*.qml"],
  r: ["*.R", "*.Rmd", "*.Rnw", "*.r"],
  racket: ["*.rkt"],
  rdoc: ["*.rdoc"],
  readme: ["*README", "README*"],
  red: ["*.r", "*.red", "*.reds"],
  robot: ["*.robot"],
  rst: ["*.rst"],
  ruby: ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  sass: ["*.sass", "*.scss"],
  scala: ["*.sbt", "*.scala"],
  sh: [
      "*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login",
      ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc",
      ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc",
      "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc",
  ],
  slim: ["*.skim", "*.slim", "*.slime"],
  smarty: ["*.tpl"],
  sml: ["*.sig", "*.sml"],
  soy: ["*.soy"],
  spark: ["*.spark"],
  spec: ["*.spec"],
  sql: ["*.psql", "*.sql"],
  stylus: ["*.styl"],
  sv: ["*.h", "*.sv", "*.svh", "*.v", "*.vg"],
  svg: ["*.svg"],
  swift: ["*.swift"],
  swig: ["*.def", "*.i"],
  systemd: [
      "*.automount", "*.conf", "*.device", "*.link", "*.mount", "*.path", "*.scope", "*.service", "*.slice", "*.socket",
      "*.swap", "*.target", "*.timer",
  ],
  taskpaper: ["*.taskpaper"],
  tcl: ["*.tcl"],
  tex: ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"],
  textile: ["*.textile"],
  tf: ["*.tf"],
  thrift: ["*.thrift"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx"],
  twig: ["*.twig"],
  txt: ["*.txt"],
  typoscript: ["*.ts", "*.typoscript"],
  vala: ["*.vala"],
  vb: ["*.vb"],
  vcl: ["*.vcl"],
  verilog: ["*.sv", "*.svh", "*.v", "*.vh"],
  vhdl: ["*.vhd", "*.vhdl"],
  vim: ["*.vim"],
  vimscript: ["*.vim"],
  webidl: ["*.idl", "*.webidl", "*.widl"],
  wiki: ["*.mediawiki", "*.wiki"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  xz: ["*.txz", "*.xz"],
  yacc: ["*.y"],
  yaml: ["*.yaml", "*.yml"],
  yang: ["*.yang"],
  z: ["*.Z"],
  zig: ["*.zig"],
  zsh: ["*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"],
  zstd: ["*.zst", "*.zstd"],
};

/**
 * The types with rg's `--type-add` definitions applied, in order: `name:glob` adds a glob to a
 * type (a new one, or one of rg's), `name:include:t1,t2` adds the globs of other types. A
 * definition rg would refuse gives `{ bad }` with rg's reason.
 */
export function typesWith(adds: readonly string[]): { types: Record<string, readonly string[]> } | { bad: string; why: string } {
  if (adds.length === 0) return { types: FILE_TYPES as Record<string, readonly string[]> };
  const types: Record<string, readonly string[]> = { ...FILE_TYPES };
  for (const def of adds) {
    const inc = /^([\p{L}\p{N}]+):include:(.+)$/u.exec(def);
    if (inc) {
      const name = inc[1] as string;
      const globs = [...(types[name] ?? [])];
      for (const other of (inc[2] as string).split(",")) {
        const g = types[other];
        if (!g) return { bad: def, why: `invalid definition (format is type:glob, e.g., html:*.html): no type '${other}' to include` };
        globs.push(...g);
      }
      types[name] = globs;
      continue;
    }
    const m = /^([^:]+):(.+)$/.exec(def);
    if (!m || /[^\p{L}\p{N}]/u.test(m[1] as string)) return { bad: def, why: "invalid definition (format is type:glob, e.g., html:*.html)" };
    // One glob per definition, as rg 13 takes it (repeat --type-add for more; no comma lists).
    types[m[1] as string] = [...(types[m[1] as string] ?? []), m[2] as string];
  }
  return { types };
}

/** The name globs of the -t (include) and -T (exclude) types; or the first unknown type's name. */
export function typeGlobs(include: string[], exclude: string[], types: Readonly<Record<string, readonly string[]>> = FILE_TYPES): { include: string[]; exclude: string[] } | { unknown: string } {
  const inc: string[] = [];
  const exc: string[] = [];
  for (const [names, out] of [
    [include, inc],
    [exclude, exc],
  ] as const) {
    for (const t of names) {
      const globs = types[t];
      if (!globs) return { unknown: t };
      out.push(...globs);
    }
  }
  return { include: inc, exclude: exc };
}
