// The interface between the emulator's runtime (gqemu.cpp) and the kernel
// modules it compiles (prelude.h is included into each): a module calls
// back into the runtime through one table of functions, handed to its
// gqemu_init when the module is loaded.
#ifndef GQEMU_H
#define GQEMU_H

struct gqemu_dim3 {
	unsigned x, y, z;
};

// gqemu_thread is what a kernel's thread sees of itself.
struct gqemu_thread {
	gqemu_dim3 tid, bid, bdim, gdim;
	unsigned lane; // linear thread index % 32
};

// Warp collectives: every lane named in the mask must arrive with the same
// mask and operation before any leaves (the rule of the *_sync built-ins).
enum {
	GQEMU_SYNCWARP = 1,
	GQEMU_BALLOT,    // result: lanes whose value is non-zero
	GQEMU_SHFL,      // result: the value of lane arg (own value when arg is outside the mask)
	GQEMU_MATCH_ANY, // result: lanes whose value equals the caller's
};

struct gqemu_api {
	const gqemu_thread* (*self)();
	void (*syncthreads)();
	unsigned long long (*warp)(int op, unsigned mask, unsigned long long value, int arg);
	void* (*dyn_shared)();
};

#endif
