/**
 * C++ as google/leveldb writes it (src/lang/preprocess.ts, src/lang/queries/cpp/symbols.scm):
 * Clang's thread-safety annotations (`int total GUARDED_BY(mu);`, `class LOCKABLE Mutex {`,
 * `void Lock() EXCLUSIVE_LOCK_FUNCTION() {`), an `#if` inside a constructor's initializer list
 * (env_posix.cc's Limiter: the recovery nested the rest of the file under a variable), a nested
 * class defined outside its class (`class VersionSet::Builder {`), constructors defined outside
 * their class (`DBImpl::DBImpl(...) : ... {}`, which were methods).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { maskForParse } from "../../src/lang/preprocess.js";

function symbols(src: string): { errors: boolean; symbols: string[] } {
  const bytes = Buffer.from(src);
  const f = extractFacts("cpp", bytes);
  for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  return { errors: f.has_errors, symbols: f.symbols.map((s) => `${s.kind} ${[...s.scope, s.name].join("::")}`) };
}

const MUTEX = `namespace port {
class LOCKABLE Mutex {
 public:
  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK() {}
 private:
  std::mutex mu_;
};
}  // namespace port

class SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(port::Mutex* mu) EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {}
  ~MutexLock() UNLOCK_FUNCTION() {}
 private:
  port::Mutex* const mu_;
};

struct SharedState {
  port::Mutex mu;
  int total GUARDED_BY(mu);
  Stats stats_[kNumLevels] ABSL_GUARDED_BY(mu);
  std::queue<Item> queue_
      GUARDED_BY(mu);
  Status Recover(VersionEdit* edit, bool* save_manifest)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool Insert(const std::string& fname) LOCKS_EXCLUDED(mu_) { return true; }
};
`;

test("thread-safety annotations are no symbols and do not derail the parse", () => {
  assert.deepEqual(symbols(MUTEX), {
    errors: false,
    symbols: [
      "namespace port",
      "class port::Mutex",
      "method port::Mutex::Lock",
      "method port::Mutex::AssertHeld",
      "field port::Mutex::mu_",
      "class MutexLock",
      "constructor MutexLock::MutexLock",
      "method MutexLock::~MutexLock",
      "field MutexLock::mu_",
      "struct SharedState",
      "field SharedState::mu",
      "field SharedState::total",
      "field SharedState::stats_",
      "field SharedState::queue_",
      "method SharedState::Recover",
      "method SharedState::Insert",
    ],
  });
  // A call or a definition of the macro itself stays as written.
  const plain = "#define GUARDED_BY(x) THREAD_ANNOTATION_ATTRIBUTE__(guarded_by(x))\nvoid f() { RELEASE(p); ACQUIRE(q); }\n";
  assert.equal(maskForParse("cpp", plain), plain);
});

test("an #if in a constructor's initializers, a call's arguments or a parameter list is read as one branch", () => {
  const src = `class Limiter {
 public:
  Limiter(int max_acquires)
      :
#if !defined(NDEBUG)
        max_acquires_(max_acquires),
#endif  // !defined(NDEBUG)
        acquires_allowed_(max_acquires) {}
  int f(int a,
#if X
        int b,
#endif
        int c) { return g(1,
#if X
                          2,
#endif
                          3); }
 private:
  int acquires_allowed_;
};
enum E {
  kA,
#if X
  kB,
#endif
  kC
};
class PosixEnv {};
`;
  assert.deepEqual(symbols(src), {
    errors: false,
    symbols: [
      "class Limiter",
      "constructor Limiter::Limiter",
      "method Limiter::f",
      "field Limiter::acquires_allowed_",
      "enum E",
      "enum_member E::kA",
      "enum_member E::kB",
      "enum_member E::kC",
      "class PosixEnv",
    ],
  });
});

test("a class defined outside its class, and constructors defined outside theirs", () => {
  const src = `namespace leveldb {
class VersionSet::Builder {
 private:
  struct BySmallestKey {
    bool operator()(int a, int b) const { return a < b; }
  };
  VersionSet* vset_;
 public:
  Builder(VersionSet* vset) : vset_(vset) {}
  void Apply(const VersionEdit* edit) {}
};
DBImpl::DBImpl(const Options& raw_options, const std::string& dbname) : env_(raw_options.env) {}
DBImpl::~DBImpl() {}
template <typename Key> SkipList<Key>::SkipList(Comparator cmp) : compare_(cmp) {}
}  // namespace leveldb
leveldb::Table::Table(Rep* rep) : rep_(rep) {}
`;
  assert.deepEqual(symbols(src).symbols, [
    "namespace leveldb",
    "class leveldb::VersionSet::Builder",
    "struct leveldb::VersionSet::Builder::BySmallestKey",
    "method leveldb::VersionSet::Builder::BySmallestKey::operator()",
    "field leveldb::VersionSet::Builder::vset_",
    "constructor leveldb::VersionSet::Builder::Builder",
    "method leveldb::VersionSet::Builder::Apply",
    "constructor leveldb::DBImpl::DBImpl",
    "method leveldb::DBImpl::~DBImpl",
    "constructor leveldb::SkipList::SkipList",
    "constructor leveldb::Table::Table",
  ]);
});
