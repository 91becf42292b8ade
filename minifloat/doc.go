// Package minifloat converts between float64 and the floating-point
// formats narrower than float32 that DLPack names: IEEE 754 binary16
// ([EncodeFloat16], [DecodeFloat16]), bfloat16 ([EncodeBfloat16],
// [DecodeBfloat16]), and the float8, float6 and float4 formats of the
// OCP and MX specifications, by type code ([Encode], [Decode]).
//
// Every conversion rounds once, from float64, to the nearest code with
// ties to even, so that a value never lands on the wrong side of a tie
// by rounding through float32 first.
package minifloat
