package vec

// A path is a set of kernels: the pure-Go ones, which every build has, or
// an instruction set's vector kernels, each wrapped with the pure-Go kernel
// for the elements outside its whole vectors (vector.go).
//
// Each job's kernel is a function of this build's (in its job's files:
// reductions_amd64.go, reductions_arm64.go and reductions_other.go for the
// reductions, arith_*.go, math_*.go, products_*.go and select_*.go for the
// others) that switches on the active path: Go's linker keeps the kernels of the jobs a program calls
// and drops the others, where a table of every path's kernels, built when
// the package starts, would keep them all in every program that imports
// the package (an extension that calls Dot alone carried every kernel,
// 150 KB of its shared library).
type path uint8

const (
	pathGo path = iota
	pathAVX2
	pathAVX512
	pathNEON
)

func (p path) String() string { return [...]string{"go", "avx2", "avx512", "neon"}[p] }

// active is the path in use: the best that the CPU runs, chosen at start-up.
var active = pathGo

// paths lists every path this build and CPU can run, the pure-Go one last:
// the tests run each.
var paths = []path{pathGo}

// Path names the kernels in use: "avx512" or "avx2" on amd64, "neon" on
// arm64, "go" for the pure-Go path (the build tag purego, or a CPU without
// the instructions).
func Path() string { return active.String() }

// use makes the paths that the CPU runs available, best first, and the first
// of them active.
func use(vector ...path) {
	paths = append(vector, pathGo)
	active = paths[0]
}
