// Package ownertest counts the owners of exported memory that package
// producer's C half has not released yet, so that tests can prove every
// deleter ran: the count before and after a test must match. Only tests
// import it.
package ownertest

// #cgo CFLAGS: -I${SRCDIR}/../../dlpack -I${SRCDIR}/../../producer -Wall -Wextra -Wno-unused-parameter
// #include "producer.h"
import "C"

import _ "github.com/godlpack/godlpack/producer" // the C counter lives in producer's C half

// Live reports how many owners, made by any package in the process, are
// alive.
func Live() int64 { return int64(C.gdl_owner_live()) }
