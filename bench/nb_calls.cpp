// The nanobind side of bench/calls.py: the functions of bench/gocalls, written with nanobind.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

namespace nb = nanobind;
using T = nb::ndarray<float, nb::c_contig, nb::device::cpu>;

NB_MODULE(nb_calls, m) {
    m.def("nop1", [](T, double) {}, nb::arg("a"), nb::arg("x"));
    m.def("nop3", [](T, T, T, double) {}, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("x"));
    m.def("nop8", [](T, T, T, T, T, T, T, T, double) {}, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("d"),
          nb::arg("e"), nb::arg("f"), nb::arg("g"), nb::arg("h"), nb::arg("x"));
}
