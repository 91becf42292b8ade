// examples/search written with nanobind, as a C++ author writes it (std::exp, std::partial_sort, OpenMP), for
// bench/search.py and for the README's count of lines: softmax_ in place, layer_norm, scores (queries @ corpus.T),
// cosine_topk, an Index class and set_num_threads. bench/search.py builds it with g++ -O3 -march=native -fopenmp.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

using Matrix = nb::ndarray<float, nb::ndim<2>, nb::device::cpu>;
using CMatrix = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using CVector = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <typename T> using NumPy = nb::ndarray<nb::numpy, T, nb::ndim<2>>;

// numpy returns a new C-contiguous rows x cols NumPy array, owned by a capsule.
template <typename T> NumPy<T> numpy(size_t rows, size_t cols) {
    T *data = new T[rows * cols];
    nb::capsule owner(data, [](void *p) noexcept { delete[] (T *)p; });
    return NumPy<T>(data, {rows, cols}, owner);
}

// normalized returns the rows of x (n x d, C order) divided by their norms (at least 1e-12).
std::vector<float> normalized(const float *x, size_t n, size_t d) {
    std::vector<float> out(x, x + n * d);
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
        float s = 0;
        for (size_t j = 0; j < d; j++) s += out[i * d + j] * out[i * d + j];
        float inv = 1 / std::max(std::sqrt(s), 1e-12f);
        for (size_t j = 0; j < d; j++) out[i * d + j] *= inv;
    }
    return out;
}

// dots writes q (nq x d) times c (nc x d) transposed into out (nq x nc).
void dots(const float *q, const float *c, float *out, size_t nq, size_t nc, size_t d) {
#pragma omp parallel for
    for (size_t i = 0; i < nq; i++)
        for (size_t j = 0; j < nc; j++) {
            float s = 0;
            for (size_t t = 0; t < d; t++) s += q[i * d + t] * c[j * d + t];
            out[i * nc + j] = s;
        }
}

// topk returns the k best scores of each row of q against the corpus c (both normalized), best first, ties to the
// lower index.
std::pair<NumPy<float>, NumPy<int64_t>> topk(const float *q, const float *c, size_t nq, size_t nc, size_t d, size_t k) {
    if (k > nc) throw nb::value_error(("k = " + std::to_string(k) + " is more than the " + std::to_string(nc) +
                                       " rows of the corpus").c_str());
    auto scores = numpy<float>(nq, k);
    auto indices = numpy<int64_t>(nq, k);
    float *best = scores.data();
    int64_t *at = indices.data();
    {
        nb::gil_scoped_release release;
#pragma omp parallel
        {
            std::vector<float> row(nc);
            std::vector<int64_t> order(nc);
#pragma omp for
            for (size_t i = 0; i < nq; i++) {
                dots(q + i * d, c, row.data(), 1, nc, d);
                std::iota(order.begin(), order.end(), 0);
                std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
                    return row[a] > row[b] || (row[a] == row[b] && a < b);
                });
                for (size_t j = 0; j < k; j++) {
                    best[i * k + j] = row[order[j]];
                    at[i * k + j] = order[j];
                }
            }
        }
    }
    return {scores, indices};
}

void check_columns(size_t got, size_t want, const char *what) {
    if (got != want)
        throw nb::value_error((std::string(what) + " has " + std::to_string(got) + " columns, not " +
                               std::to_string(want)).c_str());
}

struct Index {
    size_t dim;
    std::vector<float> vectors;  // normalized rows of dim

    explicit Index(int64_t dim) : dim(dim) {
        if (dim <= 0) throw nb::value_error(("dim must be positive, not " + std::to_string(dim)).c_str());
    }
    void add(CMatrix x) {
        check_columns(x.shape(1), dim, "x");
        auto rows = normalized(x.data(), x.shape(0), dim);
        vectors.insert(vectors.end(), rows.begin(), rows.end());
    }
    size_t ntotal() const { return vectors.size() / dim; }
    std::pair<NumPy<float>, NumPy<int64_t>> search(CMatrix q, int64_t k) const {
        check_columns(q.shape(1), dim, "q");
        auto nq = normalized(q.data(), q.shape(0), dim);
        return topk(nq.data(), vectors.data(), q.shape(0), ntotal(), dim, k);
    }
};

NB_MODULE(nb_search, m) {
    m.doc() = "Softmax, layer norm, scores and cosine top-k over float32 rows, in C++.";

    m.def("softmax_", [](Matrix x) {
        auto v = x.view();
#pragma omp parallel for
        for (size_t i = 0; i < v.shape(0); i++) {
            float top = -INFINITY, sum = 0;
            for (size_t j = 0; j < v.shape(1); j++) top = std::max(top, v(i, j));
            for (size_t j = 0; j < v.shape(1); j++) sum += v(i, j) = std::exp(v(i, j) - top);
            for (size_t j = 0; j < v.shape(1); j++) v(i, j) /= sum;
        }
    }, "x"_a.noconvert(), nb::call_guard<nb::gil_scoped_release>(), "Replace each row of x by its softmax.");

    m.def("layer_norm", [](CMatrix x, CVector gamma, CVector beta, float eps) {
        size_t n = x.shape(0), d = x.shape(1);
        check_columns(gamma.shape(0), d, "gamma");
        check_columns(beta.shape(0), d, "beta");
        auto out = numpy<float>(n, d);
        const float *in = x.data(), *g = gamma.data(), *b = beta.data();
        float *o = out.data();
        nb::gil_scoped_release release;
#pragma omp parallel for
        for (size_t i = 0; i < n; i++) {
            float mean = 0, var = 0;
            for (size_t j = 0; j < d; j++) mean += in[i * d + j];
            mean /= d;
            for (size_t j = 0; j < d; j++) var += (in[i * d + j] - mean) * (in[i * d + j] - mean);
            float inv = 1 / std::sqrt(var / d + eps);
            for (size_t j = 0; j < d; j++) o[i * d + j] = (in[i * d + j] - mean) * inv * g[j] + b[j];
        }
        return out;
    }, "x"_a, "gamma"_a, "beta"_a, "eps"_a = 1e-5f, "Normalize each row of x, then scale by gamma and shift by beta.");

    m.def("scores", [](CMatrix q, CMatrix c) {
        check_columns(c.shape(1), q.shape(1), "corpus");
        auto out = numpy<float>(q.shape(0), c.shape(0));
        nb::gil_scoped_release release;
        dots(q.data(), c.data(), out.data(), q.shape(0), c.shape(0), q.shape(1));
        return out;
    }, "queries"_a, "corpus"_a, "queries @ corpus.T.");

    m.def("cosine_topk", [](CMatrix q, CMatrix c, int64_t k) {
        check_columns(c.shape(1), q.shape(1), "corpus");
        size_t d = q.shape(1);
        auto nq = normalized(q.data(), q.shape(0), d), nc = normalized(c.data(), c.shape(0), d);
        return topk(nq.data(), nc.data(), q.shape(0), c.shape(0), d, k);
    }, "queries"_a, "corpus"_a, "k"_a, "The k rows of corpus most like each query (cosine), best first: scores, indices.");

    nb::class_<Index>(m, "Index", "Vectors of one dimension, searched by cosine similarity.")
        .def(nb::init<int64_t>(), "dim"_a)
        .def("add", &Index::add, "x"_a, "Add the rows of x.")
        .def("search", &Index::search, "q"_a, "k"_a, "The k vectors most like each row of q: scores, indices.")
        .def("__len__", &Index::ntotal)
        .def_prop_ro("ntotal", &Index::ntotal, "The vectors added.");

    m.def("set_num_threads", [](int n) { omp_set_num_threads(n); }, "n"_a, "Set the threads the functions use.");
}
