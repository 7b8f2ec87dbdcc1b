//go:build ucx

package shuffle

/*
#cgo LDFLAGS: -lucp -lucs
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

// One completion flag per in-flight operation, in C memory so UCX's
// callbacks may write it after the Go call that started it returned.
typedef struct { volatile int done; ucs_status_t status; size_t length; void *req; } gq_op;

// gq_op_free releases the UCX request once its callback has run (freeing
// it earlier would silence the callback).
static void gq_op_free(gq_op *op) { if (op->req) ucp_request_free(op->req); free(op); }

static void gq_send_cb(void *req, ucs_status_t st, void *user) {
	gq_op *op = user; op->status = st; op->done = 1;
}
static void gq_recv_cb(void *req, ucs_status_t st, const ucp_tag_recv_info_t *info, void *user) {
	gq_op *op = user; op->status = st; if (info) op->length = info->length; op->done = 1;
}

static ucs_status_t gq_init(ucp_context_h *ctx, ucp_worker_h *w) {
	ucp_config_t *cfg;
	ucs_status_t st = ucp_config_read(NULL, NULL, &cfg);
	if (st != UCS_OK) return st;
	ucp_params_t p; memset(&p, 0, sizeof p);
	p.field_mask = UCP_PARAM_FIELD_FEATURES;
	p.features = UCP_FEATURE_TAG;
	st = ucp_init(&p, cfg, ctx);
	ucp_config_release(cfg);
	if (st != UCS_OK) return st;
	ucp_worker_params_t wp; memset(&wp, 0, sizeof wp);
	wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
	wp.thread_mode = UCS_THREAD_MODE_SERIALIZED;
	st = ucp_worker_create(*ctx, &wp, w);
	if (st != UCS_OK) ucp_cleanup(*ctx);
	return st;
}

static ucs_status_t gq_connect(ucp_worker_h w, void *addr, ucp_ep_h *ep) {
	ucp_ep_params_t p; memset(&p, 0, sizeof p);
	p.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
	p.address = addr;
	return ucp_ep_create(w, &p, ep);
}

// gq_send starts a tagged send; 0: done at once, 1: op completes later,
// <0: a ucs_status_t error.
static int gq_send(ucp_ep_h ep, void *buf, size_t n, uint64_t tag, gq_op *op) {
	ucp_request_param_t p; memset(&p, 0, sizeof p);
	p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
	p.cb.send = gq_send_cb; p.user_data = op;
	ucs_status_ptr_t r = ucp_tag_send_nbx(ep, buf, n, tag, &p);
	if (r == NULL) return 0;
	if (UCS_PTR_IS_ERR(r)) return UCS_PTR_STATUS(r);
	op->req = r;
	return 1;
}

// gq_probe takes the next arrived message off the worker, if any.
static ucp_tag_message_h gq_probe(ucp_worker_h w, uint64_t *tag, size_t *n) {
	ucp_tag_recv_info_t info;
	ucp_tag_message_h m = ucp_tag_probe_nb(w, 0, 0, 1, &info);
	if (m != NULL) { *tag = info.sender_tag; *n = info.length; }
	return m;
}

static int gq_recv(ucp_worker_h w, void *buf, size_t n, ucp_tag_message_h m, gq_op *op) {
	ucp_request_param_t p; memset(&p, 0, sizeof p);
	p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
	p.cb.recv = gq_recv_cb; p.user_data = op;
	ucs_status_ptr_t r = ucp_tag_msg_recv_nbx(w, buf, n, m, &p);
	if (r == NULL) return 0;
	if (UCS_PTR_IS_ERR(r)) return UCS_PTR_STATUS(r);
	op->req = r;
	return 1;
}

static void gq_ep_close(ucp_worker_h w, ucp_ep_h ep) {
	ucp_request_param_t p; memset(&p, 0, sizeof p);
	p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
	p.flags = UCP_EP_CLOSE_FLAG_FORCE;
	ucs_status_ptr_t r = ucp_ep_close_nbx(ep, &p);
	if (r != NULL && !UCS_PTR_IS_ERR(r)) {
		while (ucp_request_check_status(r) == UCS_INPROGRESS) ucp_worker_progress(w);
		ucp_request_free(r);
	}
}
*/
import "C"

import (
	"runtime"
	"unsafe"

	"gq/errs"
)

// ucxWorker is the thin binding: one UCP context and worker, endpoints to
// the peers, and tagged sends and probed receives whose buffers stay Go
// memory (pinned while UCX uses them, so nothing is copied).
type ucxWorker struct {
	ctx    C.ucp_context_h
	worker C.ucp_worker_h
	eps    []C.ucp_ep_h
}

func ucxStatus(st C.ucs_status_t, what string) error {
	return errs.New(errs.Communication, "ucx: %s: %s", what, C.GoString(C.ucs_status_string(st)))
}

func newUCXWorker() (*ucxWorker, error) {
	w := &ucxWorker{}
	if st := C.gq_init(&w.ctx, &w.worker); st != C.UCS_OK {
		return nil, ucxStatus(st, "init")
	}
	return w, nil
}

// address is the worker's address, to be given to the peers.
func (w *ucxWorker) address() ([]byte, error) {
	var a *C.ucp_address_t
	var n C.size_t
	if st := C.ucp_worker_get_address(w.worker, &a, &n); st != C.UCS_OK {
		return nil, ucxStatus(st, "worker address")
	}
	defer C.ucp_worker_release_address(w.worker, a)
	return C.GoBytes(unsafe.Pointer(a), C.int(n)), nil
}

func (w *ucxWorker) connect(addrs [][]byte, self int) error {
	w.eps = make([]C.ucp_ep_h, len(addrs))
	for r, a := range addrs {
		if r == self {
			continue
		}
		ca := C.CBytes(a)
		st := C.gq_connect(w.worker, ca, &w.eps[r])
		C.free(ca)
		if st != C.UCS_OK {
			return ucxStatus(st, "connect to a peer")
		}
	}
	return nil
}

// ucxOp is one send or receive in flight.
type ucxOp struct {
	st  *C.gq_op
	pin runtime.Pinner
	buf []byte
	tag uint64
}

func newOp() *ucxOp {
	op := &ucxOp{st: (*C.gq_op)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gq_op{}))))}
	return op
}

func (op *ucxOp) done() bool { return op.st.done != 0 }

func (op *ucxOp) err() error {
	if op.st.status != C.UCS_OK {
		return ucxStatus(op.st.status, "transfer")
	}
	return nil
}

func (op *ucxOp) free() {
	op.pin.Unpin()
	C.gq_op_free(op.st)
}

func bufPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// send starts sending buf; a nil op means it completed at once.
func (w *ucxWorker) send(dst int, tag uint64, buf []byte) (*ucxOp, error) {
	op := newOp()
	if len(buf) > 0 {
		op.pin.Pin(&buf[0])
	}
	op.buf = buf
	rc := C.gq_send(w.eps[dst], bufPtr(buf), C.size_t(len(buf)), C.uint64_t(tag), op.st)
	switch {
	case rc == 0:
		op.free()
		return nil, nil
	case rc < 0:
		op.free()
		return nil, ucxStatus(C.ucs_status_t(rc), "send")
	}
	return op, nil
}

// probe starts receiving the next arrived message, if any (nil, nil: none).
func (w *ucxWorker) probe() (*ucxOp, error) {
	var tag C.uint64_t
	var n C.size_t
	m := C.gq_probe(w.worker, &tag, &n)
	if m == nil {
		return nil, nil
	}
	op := newOp()
	op.buf = getBuffer(int(n)) // handed back by the receiver with Release
	op.tag = uint64(tag)
	if n > 0 {
		op.pin.Pin(&op.buf[0])
	}
	rc := C.gq_recv(w.worker, bufPtr(op.buf), n, m, op.st)
	switch {
	case rc == 0:
		op.st.done = 1
	case rc < 0:
		op.free()
		return nil, ucxStatus(C.ucs_status_t(rc), "receive")
	}
	return op, nil
}

// progress advances UCX; it says whether anything happened.
func (w *ucxWorker) progress() bool { return C.ucp_worker_progress(w.worker) != 0 }

func (w *ucxWorker) close() {
	for _, ep := range w.eps {
		if ep != nil {
			C.gq_ep_close(w.worker, ep)
		}
	}
	C.ucp_worker_destroy(w.worker)
	C.ucp_cleanup(w.ctx)
}
