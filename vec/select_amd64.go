//go:build !purego

package vec

import "unsafe"

// The assembly kernels of select_amd64.s: whole vectors only, fewer than
// 2^31 elements.

func aboveF32AVX512(p *float32, n int, t float32) int
func atLeastF32AVX512(p *float32, n int, t float32) int
func belowF32AVX512(p *float32, n int, t float32) int
func atMostF32AVX512(p *float32, n int, t float32) int
func aboveF64AVX512(p *float64, n int, t float64) int
func atLeastF64AVX512(p *float64, n int, t float64) int
func belowF64AVX512(p *float64, n int, t float64) int
func atMostF64AVX512(p *float64, n int, t float64) int
func argMaxF32AVX512(p *float32, n int) int
func argMinF32AVX512(p *float32, n int) int
func argMaxF64AVX512(p *float64, n int) int
func argMinF64AVX512(p *float64, n int) int

func aboveF32AVX2(p *float32, n int, t float32) int
func atLeastF32AVX2(p *float32, n int, t float32) int
func belowF32AVX2(p *float32, n int, t float32) int
func atMostF32AVX2(p *float32, n int, t float32) int
func aboveF64AVX2(p *float64, n int, t float64) int
func atLeastF64AVX2(p *float64, n int, t float64) int
func belowF64AVX2(p *float64, n int, t float64) int
func atMostF64AVX2(p *float64, n int, t float64) int
func argMaxF32AVX2(p *float32, n int) int
func argMinF32AVX2(p *float32, n int) int
func argMaxF64AVX2(p *float64, n int) int
func argMinF64AVX2(p *float64, n int) int

var avx512Select = selectKernels{
	scanF32: scanWith([4]func(*float32, int, float32) int{aboveF32AVX512, belowF32AVX512, atLeastF32AVX512, atMostF32AVX512}, 16, 64),
	scanF64: scanWith([4]func(*float64, int, float64) int{aboveF64AVX512, belowF64AVX512, atLeastF64AVX512, atMostF64AVX512}, 8, 64),
	argF32:  argWith([2]func(*float32, int) int{argMaxF32AVX512, argMinF32AVX512}, 16, 64),
	argF64:  argWith([2]func(*float64, int) int{argMaxF64AVX512, argMinF64AVX512}, 8, 64),
}

var avx2Select = selectKernels{
	scanF32: scanWith([4]func(*float32, int, float32) int{aboveF32AVX2, belowF32AVX2, atLeastF32AVX2, atMostF32AVX2}, 8, 32),
	scanF64: scanWith([4]func(*float64, int, float64) int{aboveF64AVX2, belowF64AVX2, atLeastF64AVX2, atMostF64AVX2}, 4, 32),
	argF32:  argWith([2]func(*float32, int) int{argMaxF32AVX2, argMinF32AVX2}, 8, 32),
	argF64:  argWith([2]func(*float64, int) int{argMaxF64AVX2, argMinF64AVX2}, 4, 32),
}

// selection returns the selection kernels of the active path.
func selection() *selectKernels {
	switch active {
	case pathAVX512:
		return &avx512Select
	case pathAVX2:
		return &avx2Select
	}
	return &goSelect
}

// scanWith makes a scan of any length from a path's kernels, by mode.
func scanWith[T Float](kernel [4]func(p *T, n int, t T) int, lanes, align int) func([]T, T, int) int {
	return func(x []T, t T, mode int) int {
		i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
		if k := scanGo(x[:i], t, mode); k < i {
			return k
		}
		if i < j {
			if k := kernel[mode](&x[i], j-i, t); k < j-i {
				return i + k
			}
		}
		return j + scanGo(x[j:], t, mode)
	}
}

// argWith makes a search of an extreme of any length from a path's
// kernels, by mode.
func argWith[T Float](kernel [2]func(p *T, n int) int, lanes, align int) func([]T, int) int {
	return func(x []T, mode int) int {
		i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
		if i == j {
			return argGo(x, mode)
		}
		body := kernel[mode](&x[i], j-i)
		if body < 0 { // nothing but NaNs and the infinity the kernel starts from
			body = argGo(x[i:j], mode)
		}
		best := argGo(x[:i], mode)
		best = firstExtreme(x, best, offsetOf(i, body), mode)
		return firstExtreme(x, best, offsetOf(j, argGo(x[j:], mode)), mode)
	}
}
