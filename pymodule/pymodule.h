/*
 * The C half of package pymodule: bound Go functions as CPython sees them.
 * A gdl_bound, made once at registration, holds each parameter's conversion
 * plan; a call parses its vectorcall arguments into one gdl_call on the C
 * stack (numbers converted, tensors taken and checked), crosses into Go once
 * with it, and turns what Go wrote back into Python objects.
 */
#ifndef GODLPACK_PYMODULE_H
#define GODLPACK_PYMODULE_H

#include <pthread.h>
#include <setjmp.h>

#include "fork.h"
#include "tensor.h"
#include "kinds.h"
#include "special.h"

#define GDL_BIND_MAX_PARAMS GDL_SIGNATURE_MAX /* what gdl_parse can name */
#define GDL_BIND_MAX_TENSORS 8                /* tensor parameters of one function */
#define GDL_BIND_MAX_RESULTS 4                /* results of one function, its error aside */
#define GDL_BIND_ERROR_LEN 512                /* room in a call for a Go error's message; a longer one is malloc'd */
#define GDL_BIND_PYTHON_ERROR (-1)            /* gdl_call.error: the Python exception Go found set is the error */
#define GDL_BIND_FORKED (-2)                  /* gdl_call.error: Go returned cpython.ErrForked */
#define GDL_BIND_CLASS_ERROR (-3)             /* gdl_call.error: raise the exception class gdl_call.raise */

/* An instance by its class's id and its Go value's slot. */
typedef struct {
	int32_t class_id, slot;
} gdl_instance_ref;

/* One value: an argument after conversion, or a result Go wrote. */
typedef struct {
	union {
		bool b;
		int8_t i8;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
		float f32;
		double f64;
		float c64[2];
		double c128[2];
		struct {
			const char *p;
			Py_ssize_t n;
		} s;
		PyObject *o;
		int32_t index;
		gdl_instance_ref inst; /* an instance result Go names by its value's slot, for C to make its object (by_slot) */
		gdl_scalar num; /* a scalar.Scalar, as it is */
	} v;
	bool present; /* false for an optional argument that was None or not passed */
	bool by_slot; /* an instance result in v.inst rather than v.o */
} gdl_value;

/*
 * What a tensor parameter accepts (pymodule's tensorSpec), held to every
 * argument in C; an argument that fails is left to Go, which converts it
 * or says what is wrong.
 */
typedef struct {
	int32_t ndtypes;    /* 0: any data type */
	DLDataType *dtypes; /* C memory, freed with the gdl_bound */
	int32_t ndim;       /* -1: any */
	int64_t *shape;     /* ndim sizes, -1 for any (C memory) */
	int32_t device;     /* -1: any device; 0: memory the CPU reads; else that DLDeviceType */
	char order;         /* 0: any layout; 'C' or 'F': contiguous */
} gdl_tensor_spec;

/*
 * What gdl_spec_fault finds wrong with a tensor argument, in the order it
 * checks; pymodule's refuse words each.
 */
enum {
	GDL_SPEC_OK = 0,
	GDL_SPEC_TYPE,           /* a dtype or a number of dimensions the parameter does not take */
	GDL_SPEC_DEVICE,         /* memory on a device the parameter does not take */
	GDL_SPEC_SHAPE,          /* a size other than the parameter's */
	GDL_SPEC_C_ORDER,        /* not C-contiguous, as the parameter asks */
	GDL_SPEC_F_ORDER,        /* not F-contiguous, as the parameter asks */
	GDL_SPEC_STRIDED_OUTPUT, /* a strided tensor to write: refused only if its elements overlap, which Go decides */
};

typedef struct {
	char *name;
	uint8_t kind;
	bool optional;    /* None means "not given" */
	bool has_default; /* dflt is used when the argument is not passed */
	bool writable;    /* a tensor the function writes in place (gdl_request.writable) */
	bool shared;      /* a shared method's or a getter's instance: held beside other shared calls (gdl_instance_check) */
	gdl_value dflt;
	char *type_name;      /* what the parameter takes, for messages: "a float", "an int" */
	gdl_tensor_spec spec; /* a tensor parameter's */
	int32_t class_id;     /* an instance parameter's class (gdl_class_of) */
	PyObject *enum_type;  /* an int parameter of an enum's Go type: the IntEnum its values must be members of */
} gdl_param;

/* Where Go's result tensors go: a source and its shape and strides, for C to wrap once back with the GIL. */
typedef gdl_source_room gdl_result_tensor;

/* How tensor results come out. */
enum { GDL_RETURN_TENSOR = 0, GDL_RETURN_NUMPY, GDL_RETURN_TORCH, GDL_RETURN_GODLPACK };

/* A bound function: made once at registration, read by every call (never freed, like the module). */
typedef struct {
	gdl_signature sig;
	int32_t id; /* the Go binding's index */
	int nparams, ntensors, nresults;
	gdl_param params[GDL_BIND_MAX_PARAMS];
	uint8_t results[GDL_BIND_MAX_RESULTS];
	PyObject *result_enums[GDL_BIND_MAX_RESULTS]; /* an int result of an enum's Go type: its IntEnum */
	int return_as;
	bool release_gil;
	bool callbacks;       /* a parameter takes a callback (a Python callable) */
	bool runs_python;     /* Go may run Python code: a parameter takes a callback or a Python object */
	bool operands;        /* a special method's operands: one that does not convert (TypeError) is NotImplemented */
	char *name;       /* its Python name: "clip_", "update" */
	char *qualname;   /* "clip_", "Accumulator.update" */
	char *class_name; /* a method's class, "rowstats.Accumulator"; NULL for a function */
	char *doc;        /* its text signature, "--", then its docstring (as CPython's built-ins) */
	char *signature;  /* Python source defining GDL_SIGNATURE_DEF with its annotated signature, or NULL */
} gdl_bound;

/*
 * A Go pymodule.Tensor (a consumer.View) laid out field for field as Go lays
 * it out (TestGoViewLayout checks every offset): C describes an argument
 * once, and the Tensor a bound function gets is a copy of it.
 */
typedef struct {
	void *data;
	const int64_t *shape;
	intptr_t shape_len, shape_cap;
	const int64_t *strides;
	intptr_t strides_len, strides_cap;
	DLDataType dtype;
	DLDevice device;
	uint64_t flags;
	DLPackVersion version;
	bool versioned;
	int64_t elements, low, high, dense_bytes;
	bool c_contiguous, f_contiguous;
	int64_t pad; /* Tensor's padding to 144 bytes */
} gdl_go_view;

/*
 * An argument tensor: what gdl_import_view imported (the call owns its
 * managed tensor or holds its lender), room for its shape and strides, and
 * the Go view of it (gdl_arg_view).
 */
typedef struct {
	gdl_imported imp;
	gdl_go_view view;
	int64_t shape[GDL_MAX_NDIM];
	int64_t strides[GDL_MAX_NDIM];
} gdl_arg_tensor;

/*
 * gdl_spec_fault holds an imported tensor to its parameter's spec: the
 * parameter's one check, in C, for every call and again for Go after a
 * conversion. GDL_SPEC_OK, or the first fault.
 */
int gdl_spec_fault(const gdl_param *p, const gdl_inspected *v);

/* gdl_arg_view describes t->imp in t->view: at the import, and again after Go converts the argument. */
void gdl_arg_view(gdl_arg_tensor *t);

/*
 * gdl_call is the one struct a call hands to Go (godlpackBindCall): the
 * arguments in, the results and any error out. It comes from a free list
 * (gdl_call_new), not the C stack, which a recursion through calls would
 * exhaust.
 */
typedef struct gdl_call {
	const gdl_bound *fn;
	gdl_value args[GDL_BIND_MAX_PARAMS];
	gdl_value results[GDL_BIND_MAX_RESULTS];
	gdl_arg_tensor tensors[GDL_BIND_MAX_TENSORS];
	gdl_result_tensor out[GDL_BIND_MAX_RESULTS];
	uint32_t unchecked; /* bit k: tensor k failed its parameter's spec in C, for Go to convert or refuse */
	uint8_t faults[GDL_BIND_MAX_TENSORS]; /* the GDL_SPEC_ fault of each tensor unchecked names */
	int nout;           /* out entries Go filled (each holds an owner reference) */
	uint32_t views;     /* bit j: out[j] is a Buffer's view, which keeps the call's first instance alive (buffer_views.c) */
	int nborrowed;      /* instances this call holds until it returns (gdl_instance_check) */
	PyObject *borrowed[GDL_BIND_MAX_PARAMS];
	/* A shared call's hold on its instance: the instance's next reader, and the thread this call runs on. */
	struct gdl_call *next_reader;
	unsigned long reader_thread;
	bool callback_failed; /* a callback's Python code raised: the exception set aside, for the caller */
	bool repair;          /* the call releases the GIL on a thread that may have lost a preemption signal */
	gdl_saved_error callback_error;
	int error; /* 0, a GDL_…_ERROR kind with the message in message, or a GDL_BIND_…: PYTHON_ERROR, FORKED, CLASS_ERROR */
	PyObject *raise; /* GDL_BIND_CLASS_ERROR's exception class (the module holds it) */
	/* A call that may run Python code from Go: where that code returns to in a child it forked (enter_go). */
	gdl_fork_exit fork_exit;
	/* The message of error: message_len bytes at text, which is message or C memory (gdl_message_room). */
	const char *text;
	size_t message_len;
	char message[GDL_BIND_ERROR_LEN];
} gdl_call;

/*
 * gdl_message_room returns room for an error message of n bytes in c: its
 * own message, or C memory the call frees once it raised; NULL when the C
 * allocator has none. Go writes the message there.
 */
char *gdl_message_room(gdl_call *c, size_t n);

/* gdl_module_new returns a new module; its definition lives as long as the process. NULL with an exception. */
PyObject *gdl_module_new(const char *name, const char *doc);

/*
 * gdl_bound_new returns a zeroed gdl_bound with its names and doc copied, or NULL
 * with MemoryError. Go fills its plan, then gdl_bound_add adds it to m.
 */
gdl_bound *gdl_bound_new(const char *name, const char *qualname, const char *doc);

/* gdl_bound_free frees a gdl_bound that gdl_bound_add never took. */
void gdl_bound_free(gdl_bound *b);

/* gdl_strdup copies s into C memory (NULL when out of memory). */
char *gdl_strdup(const char *s);

/*
 * gdl_bound_add finishes b (its signature for gdl_parse) and adds it to m as
 * a function of the binder's (gdl_function_new): __module__, __qualname__,
 * pickling by name and __text_signature__ (from b->doc) all as for a
 * function of a C module. -1 with an exception; b is then b's caller's to
 * free.
 */
int gdl_bound_add(PyObject *m, gdl_bound *b);

/* gdl_bound_finish readies b's signature for gdl_parse, from its parameters. */
void gdl_bound_finish(gdl_bound *b);

/*
 * gdl_signature_eval returns the inspect.Signature of the function named
 * GDL_SIGNATURE_DEF that source defines, evaluated in a copy of the
 * namespace of the module named module_name (signature.c): a function's
 * __signature__. NULL with an exception.
 */
#define GDL_SIGNATURE_DEF "signature"
PyObject *gdl_signature_eval(const char *source, PyObject *module_name);

/*
 * gdl_function_new returns the binder's function object of b (function.c),
 * a function of the module named module (a str) whose __self__ is self (the
 * module), or a method when b->class_name is set (self NULL). NULL with an
 * exception.
 */
PyObject *gdl_function_new(const gdl_bound *b, PyObject *module, PyObject *self);

/*
 * The steps of a call, which a callback's call takes too (function_callback.c):
 * gdl_convert_arg converts argument i of b (NULL when not passed) into
 * c->args[i], counting tensors in *nt; gdl_convert_result turns result j of
 * c into a new reference; gdl_drop_results lets go of what results from j
 * on hold. gdl_call_new and gdl_call_free give and take back a call's
 * struct, never on the C stack (about 16 KiB).
 */
int gdl_convert_arg(const gdl_bound *b, int i, PyObject *o, gdl_call *c, int *nt);
PyObject *gdl_convert_result(const gdl_bound *b, gdl_call *c, int j);

/*
 * gdl_plain_object makes the value at at, of kind k (a bool, an integer, a
 * float or a complex kind, laid out as in a gdl_value or a Go value), its
 * Python object.
 */
PyObject *gdl_plain_object(uint8_t k, const void *at);
void gdl_drop_results(const gdl_bound *b, gdl_call *c, int j);
gdl_call *gdl_call_new(void);
void gdl_call_free(gdl_call *c);

/*
 * A callback's call (function_callback.c): Go writes the callback's arguments as the
 * results of args (a gdl_bound whose results are their kinds) into c, and C
 * calls callable with them, then reads what it returned as the parameters
 * of results (a gdl_bound whose parameters are its results' kinds) into
 * c's arguments. An exception the callable raises, or a result that does
 * not convert, is set aside in owner, the bound call the callback belongs
 * to, which raises it when it returns.
 */
typedef struct {
	const gdl_bound *args, *results;
	PyObject *callable;
	gdl_call *owner;
	gdl_call *c;
	PyObject *returned; /* what the callable returned, whose values c's arguments may point into */
	/*
	 * Non-zero once owner returned (Go's callbackState.expired, read with the
	 * GIL held): from then on neither owner nor callable may be touched.
	 */
	const int32_t *expired;
} gdl_callback_call;

/*
 * gdl_callback_invoke is a callback's call: 0; -1, the exception set aside in
 * the owner; -3 when the owner returned before the callback had the GIL, or
 * while its Python code ran (nothing set aside). In a child its Python code
 * forked it does not return to Go: it jumps back to the owner's call, or the
 * child exits (function_callback.c).
 */
int gdl_callback_invoke(gdl_callback_call *cb);

/* gdl_callback_done lets go of what the callable returned, once Go has read its values. */
void gdl_callback_done(gdl_callback_call *cb);

/* gdl_callback_drop lets go of the arguments Go wrote before one failed to convert. */
void gdl_callback_drop(gdl_callback_call *cb);

/* gdl_bound_call is the call of b: the vectorcall of its function object. */
PyObject *gdl_bound_call(const gdl_bound *b, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* gdl_result_bytes copies n bytes into C memory for a string or bytes result; NULL when out of memory. */
char *gdl_result_bytes(const void *p, size_t n);

/* gdl_import_error raises ImportError with the len bytes at msg (a registration that cannot be made). */
void gdl_import_error(const char *msg, Py_ssize_t len);

/* gdl_none returns a new reference to None (Py_None is a macro). */
PyObject *gdl_none(void);

/* ---- Classes (class_instances.c, class.c) ---- */

/*
 * A property of a class: its getter and its setter (NULL: read-only), bound
 * methods of the class; or, where get is NULL, a field that C reads itself
 * (pymodule.Field), of a plain kind (gdl_plain_object), at offset in the
 * instance's Go value.
 */
typedef struct {
	char *name, *doc;
	const gdl_bound *get, *set;
	uint32_t offset;
	uint8_t kind;
} gdl_property;

/* A Go type bound as a Python class. */
typedef struct {
	PyTypeObject *type;
	int32_t id;
	const gdl_bound *init;                  /* the constructor, or NULL */
	const gdl_bound *special[GDL_NSPECIAL]; /* the author's special methods (special.c), each or NULL */
	vectorcallfunc call;                    /* an instance's vectorcall, for a class with __call__ (special.c) */
	const gdl_bound *state;                 /* pickling: the state of an instance */
	PyObject *restore;                      /* pickling: the class's _restore function */
	PyObject **objects;                     /* by slot: the instance wrapping each Go value (borrowed) */
	int32_t nobjects;
	bool frees; /* its values hold pymodule.Buffers, which an instance's death frees at once (not in a batch) */
} gdl_class;

/*
 * An instance: its class, and the slot of its Go value in the class's table.
 * Calls hold it (gdl_instance_check): one exclusive call (borrower), or any
 * number of shared ones (readers), never both but on one thread.
 */
typedef struct {
	PyObject_HEAD
	int32_t class_id;
	int32_t slot;
	const char *value;           /* the Go value's address once Go pinned it for its fields (godlpackClassPin), or NULL */
	const gdl_call *borrower;    /* the running exclusive call that holds the instance, or NULL */
	unsigned long holder_thread; /* the thread borrower runs on */
	struct gdl_call *readers;    /* the running shared calls that hold it, linked by next_reader; NULL for none */
	PyObject *weakrefs;
	/*
	 * Set while the instance dies and its weak references' callbacks run: Python code that may ask Go for its
	 * value again, which then gets a new instance (handed_over), never this one.
	 */
	bool dying, handed_over;
} gdl_instance;

/* gdl_class_reserve reserves the id of a class to be made (its methods name it). -1 with MemoryError. */
int32_t gdl_class_reserve(void);

/* gdl_class_of returns the record of class id. */
gdl_class *gdl_class_of(int32_t id);

/* gdl_class_of_type finds the record of a class this library made by its type, or NULL. */
gdl_class *gdl_class_of_type(PyTypeObject *tp);

/*
 * gdl_instance_dealloc is the tp_dealloc of every class: the instance's death
 * lets go of its Go value's slot (class_instances.c).
 */
void gdl_instance_dealloc(gdl_instance *o);

/*
 * gdl_class_make makes class id, named qualified ("rowstats.Accumulator"),
 * a type of module m (added to it by its short name), with the properties
 * props (kept: C memory the caller gives up). -1 with an exception.
 */
int gdl_class_make(int32_t id, PyObject *m, const char *qualified, const char *doc, gdl_property *props, int nprops);

/* gdl_class_set puts value, a method, a static method or a class attribute, in class id's dict. -1 with an exception. */
int gdl_class_set(int32_t id, const char *name, PyObject *value);

/*
 * gdl_class_forget takes name out of class id's dict where it is a slot
 * wrapper the type made for a slot the author filled for another name
 * (__radd__ beside __add__): a Python class has no such attribute. -1 with an
 * exception.
 */
int gdl_class_forget(int32_t id, const char *name);

/*
 * An instance of a class with __call__ (gdl_class.call): Python calls it by
 * its vectorcall, whose offset the type names.
 */
typedef struct {
	gdl_instance base;
	vectorcallfunc vectorcall;
} gdl_callable_instance;

/*
 * gdl_special_slots writes the type slots class c's special methods fill into
 * slots (room for GDL_SPECIAL_SLOTS) and returns how many (special.c).
 */
#define GDL_SPECIAL_SLOTS 48
int gdl_special_slots(gdl_class *c, PyType_Slot *slots);

/* gdl_method_call calls method b of self with arg, or with nothing more where arg is NULL (special.c). */
PyObject *gdl_method_call(const gdl_bound *b, PyObject *self, PyObject *arg);

/* gdl_instance_take returns the instance of class id holding slot's Go value: the one there is, or a new one. */
PyObject *gdl_instance_take(int32_t id, int32_t slot);

/*
 * The slots whose instances died, whose Go values Go lets go of in a batch
 * (godlpackClassReleaseDead), when the batch is full or at the start of the
 * next call that holds the GIL, rather than by a call into Go at each death.
 * Read and written with the GIL held.
 */
#define GDL_DEAD_BATCH 64
typedef struct {
	int32_t class_id, slot;
} gdl_slot;
extern gdl_slot gdl_dead[GDL_DEAD_BATCH];
extern int32_t gdl_ndead;

/* gdl_slot_bury puts the slot of a value no instance holds in the batch. */
void gdl_slot_bury(int32_t id, int32_t slot);

/* gdl_slot_drop buries slot unless an instance holds its value: a by_slot result that will not reach Python. */
void gdl_slot_drop(int32_t id, int32_t slot);

/*
 * gdl_view_keep makes the result tensor src, a view of a pymodule.Buffer
 * (gdl_call.views), keep alive the instance b's call c took first (a
 * method's self), if its first parameter takes one: src's owner is wrapped
 * in one that holds the instance too, and lets go of it, taking the GIL, on
 * whichever thread the last holder lets go. -1 with MemoryError (src is
 * then released).
 */
int gdl_view_keep(const gdl_bound *b, const gdl_call *c, gdl_source *src);

/*
 * gdl_instance_check reads instance argument o of parameter p into v (its
 * slot): 0; -1, with no exception, for an object of another type; -2 with
 * RuntimeError for an instance a call on another thread holds. Every call
 * holds its instance arguments until it returns (gdl_instances_return lets
 * go).
 */
int gdl_instance_check(const gdl_param *p, PyObject *o, gdl_call *c, gdl_value *v);
void gdl_instances_return(gdl_call *c);

#endif
