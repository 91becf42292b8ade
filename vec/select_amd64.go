//go:build !purego

package vec

import "unsafe"

// The assembly kernels of select_avx512_amd64.s and select_avx2_amd64.s:
// whole vectors only, fewer than 2^31 elements.

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

// The kernels of the active path (select.go): AVX-512's, AVX2's or plain
// Go's.

func scanF32Kernel(x []float32, t float32, mode int) int {
	return scanOn(&scanF32AVX512, &scanF32AVX2, x, t, mode)
}

func scanF64Kernel(x []float64, t float64, mode int) int {
	return scanOn(&scanF64AVX512, &scanF64AVX2, x, t, mode)
}

func argF32Kernel(x []float32, mode int) int { return argOn(&argF32AVX512, &argF32AVX2, x, mode) }
func argF64Kernel(x []float64, mode int) int { return argOn(&argF64AVX512, &argF64AVX2, x, mode) }

// The kernels by mode: scanAbove, scanBelow, and each with scanEqual; argMax and argMin.
var (
	scanF32AVX512 = [4]func(*float32, int, float32) int{aboveF32AVX512, belowF32AVX512, atLeastF32AVX512, atMostF32AVX512}
	scanF64AVX512 = [4]func(*float64, int, float64) int{aboveF64AVX512, belowF64AVX512, atLeastF64AVX512, atMostF64AVX512}
	scanF32AVX2   = [4]func(*float32, int, float32) int{aboveF32AVX2, belowF32AVX2, atLeastF32AVX2, atMostF32AVX2}
	scanF64AVX2   = [4]func(*float64, int, float64) int{aboveF64AVX2, belowF64AVX2, atLeastF64AVX2, atMostF64AVX2}
	argF32AVX512  = [2]func(*float32, int) int{argMaxF32AVX512, argMinF32AVX512}
	argF64AVX512  = [2]func(*float64, int) int{argMaxF64AVX512, argMinF64AVX512}
	argF32AVX2    = [2]func(*float32, int) int{argMaxF32AVX2, argMinF32AVX2}
	argF64AVX2    = [2]func(*float64, int) int{argMaxF64AVX2, argMinF64AVX2}
)

// scanOn is a scan of any length on the active path: a whole vector of T a
// step.
func scanOn[T Float](avx512, avx2 *[4]func(p *T, n int, t T) int, x []T, t T, mode int) int {
	size := int(unsafe.Sizeof(t))
	switch active {
	case pathAVX512:
		return scanVec(avx512, 64/size, 64, x, t, mode)
	case pathAVX2:
		return scanVec(avx2, 32/size, 32, x, t, mode)
	}
	return scanGo(x, t, mode)
}

// argOn is a search of an extreme of any length on the active path.
func argOn[T Float](avx512, avx2 *[2]func(p *T, n int) int, x []T, mode int) int {
	size := int(unsafe.Sizeof(T(0)))
	switch active {
	case pathAVX512:
		return argVec(avx512, 64/size, 64, x, mode)
	case pathAVX2:
		return argVec(avx2, 32/size, 32, x, mode)
	}
	return argGo(x, mode)
}

// scanVec is a scan of any length with a path's kernels, by mode.
func scanVec[T Float](kernel *[4]func(p *T, n int, t T) int, lanes, align int, x []T, t T, mode int) int {
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

// argVec is a search of an extreme of any length with a path's kernels, by
// mode.
func argVec[T Float](kernel *[2]func(p *T, n int) int, lanes, align int, x []T, mode int) int {
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
