package vec

import (
	"fmt"
	"runtime"
	"testing"
)

// benchPaths runs bench on every path, for 1k, 64k and 1M elements of T.
func benchPaths[T Number](b *testing.B, name string, bench func(b *testing.B, x []T)) {
	saved := active
	defer func() { active = saved }()
	for _, p := range paths {
		active = p
		for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
			x := make([]T, n)
			for i := range x {
				x[i] = T(i % 7)
			}
			b.Run(fmt.Sprintf("%s/%s/%d", name, p, n), func(b *testing.B) {
				b.SetBytes(int64(n) * int64(sizeOf[T]()))
				for range b.N {
					bench(b, x)
				}
			})
		}
	}
}

func sizeOf[T Number]() int { return 1 << kindOf[T]().log2size() }

var sink float64

func BenchmarkSum(b *testing.B) {
	benchPaths(b, "float32", func(b *testing.B, x []float32) { sink += Sum(x) })
	benchPaths(b, "float64", func(b *testing.B, x []float64) { sink += Sum(x) })
	benchPaths(b, "int32", func(b *testing.B, x []int32) { sink += float64(SumInt(x)) })
}

func BenchmarkDot(b *testing.B) {
	benchPaths(b, "float32", func(b *testing.B, x []float32) { sink += Dot(x, x) })
	benchPaths(b, "float64", func(b *testing.B, x []float64) { sink += Dot(x, x) })
}

func BenchmarkMax(b *testing.B) {
	benchPaths(b, "float32", func(b *testing.B, x []float32) { sink += float64(Max(x)) })
	benchPaths(b, "int32", func(b *testing.B, x []int32) { sink += float64(Max(x)) })
}

// BenchmarkGCAfterASplit times a garbage collection (runtime.GC) before and
// after a split over far more goroutines than the cores (a thread count of
// 1<<20, as set_num_threads(10**6) gives): each P the split left would make
// every later collection slower, and the split leaves none.
func BenchmarkGCAfterASplit(b *testing.B) {
	collect := func(b *testing.B) {
		for b.Loop() {
			runtime.GC()
		}
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "Ps")
	}
	b.Run("before", collect)
	saved := SetThreads(1 << 20)
	Parallel(300, 1<<40, func(lo, hi int) {})
	SetThreads(saved)
	b.Run("after", collect)
}
