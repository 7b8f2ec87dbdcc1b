// gqemu: a stand-in for the CUDA driver (libcuda.so.1) and NVRTC that runs
// gq's kernels on the CPU, so the whole GPU path — arrowgpu's binding,
// the device table cache, the GPU operators, placement — runs on a machine
// without a GPU. It is a test device, not a fast one.
//
// - Device memory is host memory (cuMemAlloc is an aligned allocation, a
//   device pointer is its address); copies are memcpy; streams and events
//   are synchronous (work is done when it is issued).
// - NVRTC is g++: a program's source gets prelude.h (the CUDA built-ins),
//   and one trampoline per extern "C" __global__ function that unpacks
//   cuLaunchKernel's argument array; the "CUBIN" is the shared object.
// - cuLaunchKernel runs the grid's blocks one after another on the calling
//   thread; a block's threads are fibers switched at
//   __syncthreads and at warp collectives, which wait for every lane their
//   mask names — so the kernels' SIMT assumptions hold, and a collective
//   or barrier that can never complete is reported (as CUDA_ERROR_UNKNOWN,
//   with the kernel and the waiting threads on stderr) instead of hanging.
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "gqemu.h"

#ifndef GQEMU_CXX
#define GQEMU_CXX "g++"
#endif
#ifndef GQEMU_INCLUDE
#define GQEMU_INCLUDE "."
#endif

extern char** environ;

namespace {

typedef int CUresult;
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	CUDA_ERROR_UNKNOWN = 999,
};

const char* error_name(CUresult r) {
	switch (r) {
	case CUDA_SUCCESS: return "CUDA_SUCCESS";
	case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
	case CUDA_ERROR_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
	case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
	case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
	case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
	}
	return "CUDA_ERROR_UNKNOWN";
}

const char* error_string(CUresult r) {
	switch (r) {
	case CUDA_SUCCESS: return "no error";
	case CUDA_ERROR_INVALID_VALUE: return "invalid argument";
	case CUDA_ERROR_OUT_OF_MEMORY: return "out of memory (gqemu: GQEMU_MEMORY bytes of device memory)";
	case CUDA_ERROR_INVALID_IMAGE: return "device kernel image is invalid (not a gqemu module)";
	case CUDA_ERROR_INVALID_HANDLE: return "invalid resource handle";
	case CUDA_ERROR_NOT_FOUND: return "named symbol not found";
	case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "too many resources requested for launch";
	}
	return "unknown error (gqemu: see stderr)";
}

long long env_int(const char* name, long long def) {
	const char* v = getenv(name);
	return v && *v ? atoll(v) : def;
}

// Device memory accounting: GQEMU_MEMORY bytes in all (default 2 GiB).
std::atomic<long long> mem_used{0};
long long mem_total() { return env_int("GQEMU_MEMORY", 2LL << 30); }
std::mutex alloc_mu;
std::vector<std::pair<uintptr_t, size_t>> allocs; // live allocations, for cuMemFree's size

double now_ms() {
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// on_big_stack runs f on a fresh thread with a default-sized stack: the
// caller may be a Go thread on a small system stack (purego without cgo),
// too small for g++'s spawn or the dynamic loader.
void on_big_stack(const std::function<void()>& f) {
	pthread_t t;
	auto run = [](void* p) -> void* {
		(*(const std::function<void()>*)p)();
		return nullptr;
	};
	if (pthread_create(&t, nullptr, run, (void*)&f) != 0) {
		f();
		return;
	}
	pthread_join(t, nullptr);
}

// ---- Modules --------------------------------------------------------------

const char image_magic[8] = {'G', 'Q', 'E', 'M', 'U', 'S', 'O', 0};

struct Module {
	void* handle;
};

struct Function {
	void (*trampoline)(void**);
	std::string name;
};

// ---- The SIMT machine -----------------------------------------------------

enum State { RUNNABLE, AT_BARRIER, AT_WARP, DONE };

// Context switches. On x86-64 a fiber switch saves the callee-saved
// registers on the old stack and loads them from the new one (no system
// call, unlike swapcontext, which sets the signal mask: kernels switch
// fibers at every warp collective). Elsewhere, ucontext.
#if defined(__x86_64__)
extern "C" void gqemu_switch(void** save_sp, void* to_sp);
asm(R"(
	.text
	.globl gqemu_switch
	.type gqemu_switch, @function
gqemu_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	subq $8, %rsp
	stmxcsr (%rsp)
	fnstcw 4(%rsp)
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	ldmxcsr (%rsp)
	fldcw 4(%rsp)
	addq $8, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.size gqemu_switch, .-gqemu_switch
)");
struct Context {
	void* sp;
};
// start_context prepares ctx to enter fn on the stack [stack, stack+size).
void start_context(Context* ctx, char* stack, size_t size, void (*fn)(), ucontext_t*) {
	uintptr_t top = ((uintptr_t)(stack + size)) & ~(uintptr_t)15;
	uint64_t* sp = (uint64_t*)top;
	*--sp = 0;              // fn's caller's slot: fn is entered with rsp ≡ 8 (mod 16)
	*--sp = (uint64_t)fn;   // gqemu_switch's ret
	for (int i = 0; i < 6; i++) *--sp = 0; // rbp rbx r12 r13 r14 r15
	*--sp = 0x037f00001f80ull; // mxcsr (low half), x87 control word
	ctx->sp = sp;
}
void switch_context(Context* save, Context* to) { gqemu_switch(&save->sp, to->sp); }
#else
struct Context {
	ucontext_t uc;
};
void start_context(Context* ctx, char* stack, size_t size, void (*fn)(), ucontext_t* link) {
	getcontext(&ctx->uc);
	ctx->uc.uc_stack.ss_sp = stack;
	ctx->uc.uc_stack.ss_size = size;
	ctx->uc.uc_link = link;
	makecontext(&ctx->uc, fn, 0);
}
void switch_context(Context* save, Context* to) { swapcontext(&save->uc, &to->uc); }
#endif

struct Fiber {
	Context ctx;
	gqemu_thread self;
	State state;
	int op;
	unsigned mask;
	unsigned long long value, result;
	int arg;
};

const size_t stack_size = 256 << 10;

struct Launch {
	Function* fn;
	void** params;
	char* dyn_shared;
	std::vector<Fiber> fibers;
	Context scheduler;
};

thread_local Launch* cur_launch;
thread_local Fiber* cur_fiber;
thread_local std::vector<char*> stacks; // reused by this thread's launches

char* stack_at(size_t i) {
	while (stacks.size() <= i) {
		// A guard page below each stack turns an overflow into a fault.
		char* p = (char*)mmap(nullptr, stack_size + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) return nullptr;
		mprotect(p, 4096, PROT_NONE);
		stacks.push_back(p + 4096);
	}
	return stacks[i];
}

void yield_to_scheduler() { switch_context(&cur_fiber->ctx, &cur_launch->scheduler); }

const gqemu_thread* api_self() { return &cur_fiber->self; }

void api_syncthreads() {
	cur_fiber->state = AT_BARRIER;
	yield_to_scheduler();
}

unsigned long long api_warp(int op, unsigned mask, unsigned long long value, int arg) {
	Fiber* f = cur_fiber;
	f->state = AT_WARP;
	f->op = op;
	f->mask = mask;
	f->value = value;
	f->arg = arg;
	yield_to_scheduler();
	return f->result;
}

void* api_dyn_shared() { return cur_launch->dyn_shared; }

const gqemu_api api = {api_self, api_syncthreads, api_warp, api_dyn_shared};

void fiber_main() {
	cur_launch->fn->trampoline(cur_launch->params);
	cur_fiber->state = DONE;
	yield_to_scheduler(); // never resumed
	abort();
}

const char* state_name(State s) {
	switch (s) {
	case RUNNABLE: return "running";
	case AT_BARRIER: return "at __syncthreads";
	case AT_WARP: return "at a warp collective";
	case DONE: return "exited";
	}
	return "?";
}

// resolve_warp completes the collectives of warp w (fibers [lo, hi)) whose
// lanes have all arrived; it reports whether any did and sets *err when a
// collective waits for a lane that has exited or disagrees on the op.
bool resolve_warp(std::vector<Fiber>& fs, size_t lo, size_t hi, std::string* err) {
	bool any = false;
	unsigned present = hi - lo == 32 ? 0xffffffffu : ((1u << (hi - lo)) - 1);
	for (size_t i = lo; i < hi; i++) {
		Fiber& f = fs[i];
		if (f.state != AT_WARP) continue;
		unsigned m = f.mask & present;
		if (!(m & (1u << (i - lo)))) {
			*err = "a warp collective's mask leaves out the calling lane";
			return any;
		}
		bool ready = true;
		for (unsigned l = 0; l < 32 && ready; l++) {
			if (!(m >> l & 1)) continue;
			Fiber& g = fs[lo + l];
			if (g.state == DONE) {
				char b[160];
				snprintf(b, sizeof b, "lane %u waits at a warp collective (mask %#x) for lane %u, which has exited", (unsigned)(i - lo), f.mask, l);
				*err = b;
				return any;
			}
			if (g.state != AT_WARP || (g.mask & present) != m) ready = false;
			else if (g.op != f.op) {
				*err = "lanes of one warp meet at different collectives";
				return any;
			}
		}
		if (!ready) continue;
		unsigned long long ballot = 0;
		for (unsigned l = 0; l < 32; l++)
			if ((m >> l & 1) && fs[lo + l].value) ballot |= 1ull << l;
		for (unsigned l = 0; l < 32; l++) {
			if (!(m >> l & 1)) continue;
			Fiber& g = fs[lo + l];
			switch (g.op) {
			case GQEMU_BALLOT: g.result = ballot; break;
			case GQEMU_SHFL: {
				unsigned src = (unsigned)g.arg & 31;
				g.result = (m >> src & 1) ? fs[lo + src].value : g.value;
				break;
			}
			case GQEMU_MATCH_ANY: {
				unsigned r = 0;
				for (unsigned k = 0; k < 32; k++)
					if ((m >> k & 1) && fs[lo + k].value == g.value) r |= 1u << k;
				g.result = r;
				break;
			}
			default: g.result = 0;
			}
		}
		for (unsigned l = 0; l < 32; l++)
			if (m >> l & 1) fs[lo + l].state = RUNNABLE;
		any = true;
	}
	return any;
}

// run_block runs one block to completion, or returns a description of why
// it cannot complete.
std::string run_block(Launch& L, gqemu_dim3 bid, gqemu_dim3 bdim, gqemu_dim3 gdim) {
	size_t n = (size_t)bdim.x * bdim.y * bdim.z;
	L.fibers.resize(n);
	for (size_t i = 0; i < n; i++) {
		Fiber& f = L.fibers[i];
		f.state = RUNNABLE;
		f.self.tid = {(unsigned)(i % bdim.x), (unsigned)(i / bdim.x % bdim.y), (unsigned)(i / ((size_t)bdim.x * bdim.y))};
		f.self.bid = bid;
		f.self.bdim = bdim;
		f.self.gdim = gdim;
		f.self.lane = i % 32;
		char* st = stack_at(i);
		if (!st) return "no memory for the threads' stacks";
		start_context(&f.ctx, st, stack_size, fiber_main, nullptr);
	}
	for (;;) {
		bool ran = false;
		for (size_t i = 0; i < n; i++) {
			if (L.fibers[i].state != RUNNABLE) continue;
			cur_fiber = &L.fibers[i];
			switch_context(&L.scheduler, &cur_fiber->ctx);
			ran = true;
		}
		size_t live = 0, barrier = 0;
		for (auto& f : L.fibers) {
			live += f.state != DONE;
			barrier += f.state == AT_BARRIER;
		}
		if (live == 0) return "";
		if (barrier == live) {
			for (auto& f : L.fibers) f.state = f.state == AT_BARRIER ? RUNNABLE : f.state;
			continue;
		}
		bool resolved = false;
		std::string err;
		for (size_t lo = 0; lo < n; lo += 32) {
			resolved |= resolve_warp(L.fibers, lo, lo + 32 < n ? lo + 32 : n, &err);
			if (!err.empty()) return err;
		}
		if (!resolved && !ran) {
			std::string s = "deadlock:";
			for (size_t i = 0; i < n; i++) {
				if (L.fibers[i].state == DONE) continue;
				char b[96];
				snprintf(b, sizeof b, " thread %zu %s;", i, state_name(L.fibers[i].state));
				s += b;
				if (s.size() > 600) break;
			}
			if (barrier > 0) s += " (__syncthreads waits for every thread that has not exited)";
			return s;
		}
	}
}

CUresult launch(Function* fn, gqemu_dim3 grid, gqemu_dim3 block, unsigned shared, void** params) {
	size_t nthreads = (size_t)block.x * block.y * block.z;
	if (nthreads == 0 || nthreads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0) return CUDA_ERROR_INVALID_VALUE;
	if (shared > 228 << 10) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	Launch L;
	L.fn = fn;
	L.params = params;
	std::vector<char> dyn(shared + 16);
	L.dyn_shared = dyn.data();
	Launch* outer = cur_launch;
	Fiber* outer_fiber = cur_fiber;
	cur_launch = &L;
	std::string err;
	for (unsigned z = 0; z < grid.z && err.empty(); z++)
		for (unsigned y = 0; y < grid.y && err.empty(); y++)
			for (unsigned x = 0; x < grid.x && err.empty(); x++) err = run_block(L, {x, y, z}, block, grid);
	cur_launch = outer;
	cur_fiber = outer_fiber;
	if (!err.empty()) {
		fprintf(stderr, "gqemu: kernel %s cannot complete: %s\n", fn->name.c_str(), err.c_str());
		return CUDA_ERROR_UNKNOWN;
	}
	return CUDA_SUCCESS;
}

// ---- NVRTC: g++ -------------------------------------------------------------

struct Program {
	std::string src, name, log;
	std::vector<char> image;
};

std::string trim(const std::string& s) {
	size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
	return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// param_type drops a parameter's name (the last identifier) and restrict.
std::string param_type(std::string p) {
	p = trim(p);
	size_t e = p.size();
	while (e > 0 && ident_char(p[e - 1])) e--;
	std::string t = trim(p.substr(0, e));
	for (const char* r : {"__restrict__", "__restrict"}) {
		size_t at;
		while ((at = t.find(r)) != std::string::npos) t.erase(at, strlen(r));
	}
	return trim(t);
}

// rewrite turns the kernel source into host C++: dynamic shared arrays
// become the launch's buffer, and each kernel gets a trampoline
// gqemu_k_NAME(void** args) calling it with its arguments unpacked.
std::string rewrite(const std::string& src, std::string* err) {
	std::string out;
	// extern __shared__ T name[];  ->  T* const name = (T*)gqemu->dyn_shared();
	// (a pointer local to the kernel that declares it, not a macro that
	// would rename every later use of the name)
	const std::string ext = "extern __shared__";
	size_t pos = 0;
	for (;;) {
		size_t at = src.find(ext, pos);
		if (at == std::string::npos) {
			out += src.substr(pos);
			break;
		}
		size_t semi = src.find(';', at);
		size_t br = src.find('[', at);
		if (semi == std::string::npos || br == std::string::npos || br > semi) {
			*err = "gqemu: cannot read an extern __shared__ declaration";
			return "";
		}
		std::string decl = trim(src.substr(at + ext.size(), br - at - ext.size()));
		size_t e = decl.size();
		while (e > 0 && ident_char(decl[e - 1])) e--;
		std::string name = decl.substr(e), type = trim(decl.substr(0, e));
		out += src.substr(pos, at - pos);
		out += type + "* const " + name + " = (" + type + "*)gqemu->dyn_shared();";
		pos = semi + 1;
	}
	std::string tramps;
	const std::string key = "extern \"C\" __global__ void";
	pos = 0;
	while ((pos = src.find(key, pos)) != std::string::npos) {
		size_t p = pos + key.size();
		while (p < src.size() && isspace((unsigned char)src[p])) p++;
		size_t ns = p;
		while (p < src.size() && ident_char(src[p])) p++;
		std::string name = src.substr(ns, p - ns);
		size_t open = src.find('(', p);
		if (open == std::string::npos) break;
		int depth = 0;
		size_t close = open;
		for (; close < src.size(); close++) {
			if (src[close] == '(') depth++;
			if (src[close] == ')' && --depth == 0) break;
		}
		std::string params = src.substr(open + 1, close - open - 1);
		std::vector<std::string> types;
		depth = 0;
		size_t start = 0;
		for (size_t i = 0; i <= params.size(); i++) {
			if (i < params.size() && (params[i] == '(' || params[i] == '<')) depth++;
			if (i < params.size() && (params[i] == ')' || params[i] == '>')) depth--;
			if (i == params.size() || (params[i] == ',' && depth == 0)) {
				std::string t = param_type(params.substr(start, i - start));
				if (!t.empty() && t != "void") types.push_back(t);
				start = i + 1;
			}
		}
		tramps += "extern \"C\" void gqemu_k_" + name + "(void** a) { " + name + "(";
		for (size_t i = 0; i < types.size(); i++) {
			if (i) tramps += ", ";
			tramps += "*(" + types[i] + "*)a[" + std::to_string(i) + "]";
		}
		tramps += "); }\n";
		pos = close;
	}
	return out + "\n// gqemu trampolines\n" + tramps;
}

bool read_file(const std::string& path, std::vector<char>* out) {
	FILE* f = fopen(path.c_str(), "rb");
	if (!f) return false;
	char buf[1 << 16];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->insert(out->end(), buf, buf + n);
	fclose(f);
	return true;
}

// compile runs g++ over the program; on success the image is the magic,
// the shared object's size (8 bytes) and the shared object.
int compile(Program* p) {
	std::string err;
	std::string src = rewrite(p->src, &err);
	if (!err.empty()) {
		p->log = err;
		return 6; // NVRTC_ERROR_COMPILATION
	}
	char dir[] = "/tmp/gqemu-XXXXXX";
	if (!mkdtemp(dir)) {
		p->log = "gqemu: cannot make a temporary directory";
		return 6;
	}
	std::string d = dir, cpp = d + "/k.cpp", so = d + "/k.so", log = d + "/log";
	FILE* f = fopen(cpp.c_str(), "w");
	if (!f) {
		p->log = "gqemu: cannot write " + cpp;
		return 6;
	}
	fwrite(src.data(), 1, src.size(), f);
	fclose(f);
	std::string opt = getenv("GQEMU_OPT") ? getenv("GQEMU_OPT") : "-O1";
	std::string inc = std::string("-I") + GQEMU_INCLUDE;
	std::string prelude = std::string(GQEMU_INCLUDE) + "/prelude.h";
	std::vector<std::string> args = {GQEMU_CXX, opt, "-g0", "-std=c++17", "-shared", "-fPIC", "-w", inc, "-include", prelude, "-o", so, cpp};
	std::vector<char*> argv;
	for (auto& a : args) argv.push_back((char*)a.c_str());
	argv.push_back(nullptr);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	pid_t pid;
	int rc = posix_spawnp(&pid, args[0].c_str(), &fa, nullptr, argv.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0;
	if (rc == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
	}
	std::vector<char> logb;
	read_file(log, &logb);
	p->log.assign(logb.begin(), logb.end());
	int result = 0;
	std::vector<char> obj;
	if (rc != 0) {
		p->log = std::string("gqemu: cannot run ") + GQEMU_CXX + ": " + strerror(rc);
		result = 6;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !read_file(so, &obj)) {
		if (p->log.empty()) p->log = "gqemu: g++ failed";
		result = 6;
	} else {
		uint64_t n = obj.size();
		p->image.assign(image_magic, image_magic + 8);
		p->image.insert(p->image.end(), (char*)&n, (char*)&n + 8);
		p->image.insert(p->image.end(), obj.begin(), obj.end());
	}
	unlink(cpp.c_str());
	unlink(so.c_str());
	unlink(log.c_str());
	rmdir(dir);
	return result;
}

} // namespace

// ---- The driver API ---------------------------------------------------------

extern "C" {

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int* v) {
	*v = 13000;
	return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult r, const char** s) {
	*s = error_name(r);
	return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult r, const char** s) {
	*s = error_string(r);
	return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int* n) {
	*n = 1;
	return CUDA_SUCCESS;
}
CUresult cuDeviceGet(int* d, int ordinal) {
	if (ordinal != 0) return CUDA_ERROR_INVALID_VALUE;
	*d = 0;
	return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char* name, int n, int) {
	snprintf(name, n, "gqemu (CPU emulation of a CUDA device)");
	return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int* v, int attr, int) {
	switch (attr) {
	case 16: *v = (int)env_int("GQEMU_SMS", 2); break; // multiprocessors
	case 75: *v = 9; break;                            // compute capability
	case 76: *v = 0; break;
	case 1: *v = 1024; break; // max threads per block
	case 10: *v = 32; break;  // warp size
	default: *v = 0;
	}
	return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t* bytes, int) {
	*bytes = (size_t)mem_total();
	return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(uintptr_t* ctx, int) {
	*ctx = 1;
	return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxSetFlags_v2(int, unsigned) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(uintptr_t) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
CUresult cuMemGetInfo_v2(size_t* free_, size_t* total) {
	long long t = mem_total(), u = mem_used.load();
	*total = (size_t)t;
	*free_ = (size_t)(u < t ? t - u : 0);
	return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(uint64_t* p, size_t n) {
	if (n == 0) return CUDA_ERROR_INVALID_VALUE;
	size_t rounded = (n + 255) & ~(size_t)255;
	if (mem_used.fetch_add((long long)rounded) + (long long)rounded > mem_total()) {
		mem_used.fetch_sub((long long)rounded);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	void* m = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		mem_used.fetch_sub((long long)rounded);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	std::lock_guard<std::mutex> g(alloc_mu);
	allocs.push_back({(uintptr_t)m, rounded});
	*p = (uint64_t)(uintptr_t)m;
	return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(uint64_t p) {
	std::lock_guard<std::mutex> g(alloc_mu);
	for (size_t i = 0; i < allocs.size(); i++) {
		if (allocs[i].first != p) continue;
		munmap((void*)p, allocs[i].second);
		mem_used.fetch_sub((long long)allocs[i].second);
		allocs[i] = allocs.back();
		allocs.pop_back();
		return CUDA_SUCCESS;
	}
	return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuMemAllocHost_v2(void** p, size_t n) {
	*p = malloc(n ? n : 1);
	return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemFreeHost(void* p) {
	free(p);
	return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t n) {
	memcpy((void*)dst, src, n);
	return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t n) {
	memcpy(dst, (const void*)src, n);
	return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t n) {
	memmove((void*)dst, (const void*)src, n);
	return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t n, uintptr_t) { return cuMemcpyHtoD_v2(dst, src, n); }
CUresult cuMemcpyDtoHAsync_v2(void* dst, uint64_t src, size_t n, uintptr_t) { return cuMemcpyDtoH_v2(dst, src, n); }
CUresult cuMemsetD8Async(uint64_t dst, unsigned char v, size_t n, uintptr_t) {
	memset((void*)dst, v, n);
	return CUDA_SUCCESS;
}
CUresult cuStreamCreate(uintptr_t* s, unsigned) {
	*s = (uintptr_t) new char(0);
	return CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(uintptr_t s) {
	delete (char*)s;
	return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(uintptr_t) { return CUDA_SUCCESS; }
CUresult cuEventCreate(uintptr_t* e, unsigned) {
	*e = (uintptr_t) new double(0);
	return CUDA_SUCCESS;
}
CUresult cuEventRecord(uintptr_t e, uintptr_t) {
	*(double*)e = now_ms();
	return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(uintptr_t) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float* ms, uintptr_t a, uintptr_t b) {
	*ms = (float)(*(double*)b - *(double*)a);
	return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(uintptr_t e) {
	delete (double*)e;
	return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(uintptr_t* mod, const void* image) {
	const char* p = (const char*)image;
	if (memcmp(p, image_magic, 8) != 0) return CUDA_ERROR_INVALID_IMAGE;
	uint64_t n;
	memcpy(&n, p + 8, 8);
	CUresult r = CUDA_SUCCESS;
	on_big_stack([&] {
		char path[] = "/tmp/gqemu-module-XXXXXX";
		int fd = mkstemp(path);
		if (fd < 0) {
			r = CUDA_ERROR_INVALID_IMAGE;
			return;
		}
		bool ok = write(fd, p + 16, n) == (ssize_t)n;
		close(fd);
		void* h = ok ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
		unlink(path);
		if (!h) {
			fprintf(stderr, "gqemu: loading a module: %s\n", dlerror());
			r = CUDA_ERROR_INVALID_IMAGE;
			return;
		}
		auto init = (void (*)(const gqemu_api*))dlsym(h, "gqemu_init");
		if (!init) {
			dlclose(h);
			r = CUDA_ERROR_INVALID_IMAGE;
			return;
		}
		init(&api);
		*mod = (uintptr_t) new Module{h};
	});
	return r;
}
CUresult cuModuleUnload(uintptr_t mod) {
	Module* m = (Module*)mod;
	dlclose(m->handle);
	delete m;
	return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(uintptr_t* f, uintptr_t mod, const char* name) {
	Module* m = (Module*)mod;
	std::string sym = std::string("gqemu_k_") + name;
	void* t = dlsym(m->handle, sym.c_str());
	if (!t) return CUDA_ERROR_NOT_FOUND;
	*f = (uintptr_t) new Function{(void (*)(void**))t, name};
	return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(uintptr_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, uintptr_t, void** params, void**) {
	return launch((Function*)f, {gx, gy, gz}, {bx, by, bz}, shared, params);
}

// ---- NVRTC ------------------------------------------------------------------

const char* nvrtcGetErrorString(int r) {
	switch (r) {
	case 0: return "NVRTC_SUCCESS";
	case 6: return "NVRTC_ERROR_COMPILATION";
	}
	return "NVRTC_ERROR_INVALID_INPUT";
}
// Version 99 keeps gqemu's images apart from real NVRTC's in the kernel
// cache (its key includes the version).
int nvrtcVersion(int* major, int* minor) {
	*major = 99;
	*minor = 0;
	return 0;
}
int nvrtcGetNumSupportedArchs(int* n) {
	*n = 1;
	return 0;
}
int nvrtcGetSupportedArchs(int* a) {
	a[0] = 90;
	return 0;
}
int nvrtcCreateProgram(uintptr_t* prog, const char* src, const char* name, int, const char* const*, const char* const*) {
	*prog = (uintptr_t) new Program{src, name ? name : "", "", {}};
	return 0;
}
int nvrtcDestroyProgram(uintptr_t* prog) {
	delete (Program*)*prog;
	*prog = 0;
	return 0;
}
int nvrtcCompileProgram(uintptr_t prog, int, const char* const*) {
	int r = 0;
	on_big_stack([&] { r = compile((Program*)prog); });
	return r;
}
int nvrtcGetProgramLogSize(uintptr_t prog, size_t* n) {
	*n = ((Program*)prog)->log.size() + 1;
	return 0;
}
int nvrtcGetProgramLog(uintptr_t prog, char* log) {
	Program* p = (Program*)prog;
	memcpy(log, p->log.c_str(), p->log.size() + 1);
	return 0;
}
int nvrtcGetCUBINSize(uintptr_t prog, size_t* n) {
	Program* p = (Program*)prog;
	if (p->image.empty()) return 3;
	*n = p->image.size();
	return 0;
}
int nvrtcGetCUBIN(uintptr_t prog, char* out) {
	Program* p = (Program*)prog;
	if (p->image.empty()) return 3;
	memcpy(out, p->image.data(), p->image.size());
	return 0;
}
// gqemu makes no PTX: it says every architecture asked for is sm_90.
int nvrtcGetPTXSize(uintptr_t, size_t*) { return 3; }
int nvrtcGetPTX(uintptr_t, char*) { return 3; }

} // extern "C"
