# Staged fp16 matmul for Hopper (and Blackwell, compiled only). `make help` lists the targets.
NVCC     ?= nvcc
CC       ?= gcc
# The CUDA headers for the C host code, asked of nvcc itself: `nvcc` on PATH
# may be a wrapper script outside the toolkit (so its directory says nothing).
comma    := ,
ifndef CUDA_INC
CUDA_INC := $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | \
              sed -n 's/^\#\$$ INCLUDES="-I\([^"]*\)".*/\1/p')
endif
ifeq ($(strip $(CUDA_INC)),)
$(error cannot find the CUDA include directory from '$(NVCC) --dryrun'; is nvcc on PATH? (or set CUDA_INC=...))
endif
ALL_STEPS := v0_single_warp v1_tma v2_pipeline v3_warp_spec v4_raster v5_clc v6_cluster v7_stream_k
STEPS    := $(ALL_STEPS)
# Steps with a Blackwell kernel (vN_name/blackwell.cu, sm_100a) beside hopper.cu.
# A step of STEPS not listed here links without one and refuses a B200 by name.
BW_STEPS := v0_single_warp v1_tma v2_pipeline v3_warp_spec v4_raster v5_clc v6_cluster
SHORT     = $(firstword $(subst _, ,$(1)))
BINS     := $(foreach s,$(STEPS),$(call SHORT,$(s)))
GIT_REV  ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)

CFLAGS   := -std=c11 -O2 -g -Wall -Wextra -pedantic -I$(CUDA_INC)
# -Xptxas -v: registers, spills and stack frame of every kernel, kept in
# build/<step>/hopper.ptxas.log where the tests read them.
NVFLAGS  := -std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a \
            -Xptxas -v -Xcompiler -Wall,-Wextra
# The same for blackwell.cu: tcgen05 needs the arch-specific sm_100a target.
BW_NVFLAGS := $(subst compute_90a$(comma)code=sm_90a,compute_100a$(comma)code=sm_100a,$(NVFLAGS))
LDLIBS   := -lcublasLt -lcublas -lm

# dispatch.c is built per step (it knows whether the step has a Blackwell kernel).
COMMON_SRC := $(filter-out common/dispatch.c,$(wildcard common/*.c))
# common/*.cu: common device code (the timing's queue hold, matmul_staged's copies).
COMMON_CU  := $(wildcard common/*.cu)
COMMON_OBJ := $(COMMON_SRC:%.c=build/%.o) $(COMMON_CU:%.cu=build/%.o)
COMMON_HDR := $(wildcard common/*.h common/*.cuh)
HOST_TEST_OBJ := $(filter-out build/common/driver.o build/common/baseline.o build/common/gpuinfo.o build/common/staged.o \
                   $(COMMON_CU:%.cu=build/%.o),$(COMMON_OBJ))

.PHONY: all test test-gpu build-broken bench bench-awkward bench-random plot readme clean help ptx sass ncu diff plan bw-extra FORCE
all: $(BINS)

help:
	@echo "make vN             build one step, vN in: $(BINS) (./vN M N K runs it)"
	@echo "make all            build every step"
	@echo "make test           CPU tests: builds, host tests, compiled-code checks, plot (no GPU needed)"
	@echo "make test-gpu       GPU tests on a Hopper GPU: shape sweep, both checks, compute-sanitizer,"
	@echo "                    two streams at once and CUDA-graph replay (build/tests/streams_graph_vN);"
	@echo "                    GPU_TEST_JOBS=n of a step's runs at once (default: cores / steps, 1..4)"
	@echo "make build-broken   build/broken/v4: v4 whose consumers never release a stage (hangs; for test-gpu)"
	@echo "make bench          every step and cuBLAS over a size sweep -> plots/results.csv"
	@echo "make bench-awkward  v6, v7 and cuBLAS over small, skinny and odd-pitch shapes -> plots/awkward.csv"
	@echo "make bench-random [SEED=n COUNT=40 SET=aligned|any]  v4..v7 and cuBLAS over random shapes"
	@echo "                    drawn from SEED -> plots/random.csv (SEED defaults to the date)"
	@echo "make plot           plots/results.csv -> plots/tflops.png/.svg and plots/ratio.png/.svg,"
	@echo "                    plots/awkward.csv -> plots/awkward_tflops/awkward_ratio, plots/random.csv ->"
	@echo "                    plots/random_ratio (v7 against the best cuBLASLt by GFLOP; needs gnuplot)"
	@echo "make readme         README.md's tables of measured figures, re-rendered from plots/*.csv"
	@echo "make ptx VERSION=vN    the step's PTX (each track: hopper, blackwell) -> build/<step>/<track>.ptx"
	@echo "make sass VERSION=vN   the step's SASS -> build/<step>/<track>.sass, with a count of its MMA"
	@echo "                       instructions and of local-memory accesses (needs cuobjdump or nvdisasm)"
	@echo "make ncu VERSION=vN [SIZE=\"M N K\"]  Nsight Compute on one launch of the step and one of"
	@echo "                       cuBLAS, side by side (needs ncu and a GPU; SIZE defaults to 8192^3)"
	@echo "make diff FROM=vN TO=vM [TRACK=hopper|blackwell]  diff -u of the two steps' kernel files"
	@echo "make plan SIZE=\"M N K\" [CLUSTERS=66] [DRAM=3352]  v7's candidate plans, their modelled times"
	@echo "                    and the one chosen, on the CPU (DRAM GB/s: 3352 H100 SXM, 4800 H200)"
	@echo "make bw-extra       compile blackwell.cu of steps not in BW_STEPS (sm_100a, ptxas-checked)"
	@echo "make clean          remove build/ and the step binaries"

# The objects that make up one step's matmul(): hopper.cu, blackwell.cu where
# BW_STEPS lists the step, dispatch.o (which picks between them at run time,
# common/dispatch.c) and common/, i.e. everything its binary links but its
# main: test programs link the same set, so they get exactly the step's
# public matmul().
HAS_BW = $(if $(filter $(1),$(BW_STEPS)),1,0)
step_objs = build/$(1)/hopper.o $(if $(filter 1,$(call HAS_BW,$(1))),build/$(1)/blackwell.o) \
            build/$(1)/dispatch.o $(COMMON_OBJ)

define STEP_RULES
$(call SHORT,$(1)): build/$(1)/main.o $(call step_objs,$(1))
	$(NVCC) -o $$@ $$^ $(LDLIBS)
build/tests/streams_graph_$(call SHORT,$(1)): build/tests/streams_graph.o $(call step_objs,$(1))
	$(NVCC) -o $$@ $$^ $(LDLIBS)
build/$(1)/dispatch.o: common/dispatch.c $(COMMON_HDR) Makefile
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS) -DSTEP_NAME='"$(1)"' -DHAVE_SM100=$(call HAS_BW,$(1)) -c $$< -o $$@
endef
# Rules for every step, not only those STEPS names (make test-gpu STEPS=v7_stream_k
# still builds build/broken/v4 from v4_raster's objects).
$(foreach s,$(ALL_STEPS),$(eval $(call STEP_RULES,$(s))))
STREAMS_GRAPH := $(BINS:%=build/tests/streams_graph_%)

build/%/hopper.o: %/hopper.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -c $< -o $@ 2> build/$*/hopper.ptxas.log; st=$$?; cat build/$*/hopper.ptxas.log >&2; exit $$st

# -Xptxas -v output of blackwell.cu, kept in build/<step>/blackwell.ptxas.log.
build/%/blackwell.o: %/blackwell.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(BW_NVFLAGS) -c $< -o $@ 2> build/$*/blackwell.ptxas.log; st=$$?; cat build/$*/blackwell.ptxas.log >&2; exit $$st

# blackwell.cu of steps not (yet) in BW_STEPS (e.g. while a step's Hopper
# kernel is being written): compiled alone for sm_100a, failing on spills,
# stack frame, local memory or ptxas warnings.
BW_EXTRA := $(filter-out $(BW_STEPS),$(patsubst %/blackwell.cu,%,$(wildcard v*/blackwell.cu)))
bw-extra: $(BW_EXTRA:%=build/%/blackwell.o) $(BW_EXTRA:%=build/%/blackwell.ptx)
	@for s in $(BW_EXTRA); do \
	    grep -h -A1 'Function properties' build/$$s/blackwell.ptxas.log | sed "s|^|$$s: |"; \
	    grep -h 'Used [0-9]* registers' build/$$s/blackwell.ptxas.log | sed "s|^|$$s: |"; \
	    ! grep -E '[1-9][0-9]* bytes (stack frame|spill)|warning' build/$$s/blackwell.ptxas.log || exit 1; \
	    ! grep -nE '(^|[^.[:alnum:]_])(ld|st)\.local' build/$$s/blackwell.ptx || exit 1; \
	done

# PTX and cubin of each kernel file, for the compiled-code tests and `make
# ptx/sass`: each track with its own target (hopper.cu sm_90a, blackwell.cu
# sm_100a), otherwise the flags of the build, less the ptxas report.
GENCODE_hopper    := -gencode=arch=compute_90a,code=sm_90a
GENCODE_blackwell := -gencode=arch=compute_100a,code=sm_100a
track_flags = $(filter-out -Xptxas -v -gencode=%,$(NVFLAGS)) $(GENCODE_$(notdir $(1)))
build/%.ptx: %.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(call track_flags,$*) -ptx $< -o $@
build/%.cubin: %.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(call track_flags,$*) -cubin $< -o $@

# v4 with -DBROKEN_RELEASE: consumer_release() does not arrive, so the producer
# waits forever for a free stage once K has more k-tiles than the ring has
# stages. test-gpu demands that the driver gives up on it in time. Built apart
# (build/broken/) so the real v4 and its objects are untouched.
build-broken: build/broken/v4
build/broken/v4: build/broken/v4_raster/hopper.o \
                 $(if $(filter 1,$(call HAS_BW,v4_raster)),build/v4_raster/blackwell.o) \
                 build/v4_raster/dispatch.o build/v4_raster/main.o $(COMMON_OBJ)
	$(NVCC) -o $@ $^ $(LDLIBS)
build/broken/v4_raster/hopper.o: v4_raster/hopper.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -DBROKEN_RELEASE -c $< -o $@
build/broken/v4_raster/hopper.ptx: v4_raster/hopper.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(filter-out -Xptxas -v,$(NVFLAGS)) -DBROKEN_RELEASE -ptx $< -o $@

build/%/main.o: %/main.c $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# The revision goes into every CSV row; the stamp file changes (and driver.o
# is rebuilt) only when the revision does.
build/git_rev.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
build/common/driver.o: CFLAGS += -DGIT_REV='"$(GIT_REV)"'
build/common/driver.o: build/git_rev.txt
build/common/%.o: common/%.c $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@
# Not tied to one architecture: sm_90 code and PTX, which a newer GPU
# (sm_100a's Blackwell kernels share the binary) compiles at load.
build/common/%.o: common/%.cu $(COMMON_HDR)
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 -O3 -gencode=arch=compute_90,code=[sm_90,compute_90] -Xcompiler -Wall,-Wextra -c $< -o $@

build/tests/%.o: tests/%.c tools/calib_order.h $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

build/tests/host_tests: build/tests/host_tests.o $(HOST_TEST_OBJ)
	$(NVCC) -o $@ $^ -lm

# Random shapes from a seed (make bench-random), and v7's candidate plans
# timed on the GPU (tools/calib.c: what the plan's cost model is fitted to).
build/tools/shapes: tools/shapes.c build/common/verify.o build/common/f16.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lm
build/tools/calib.o: tools/calib.c tools/calib_order.h $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@
build/tools/calib_v7: build/tools/calib.o $(call step_objs,v7_stream_k)
	$(NVCC) -o $@ $^ $(LDLIBS)

# v7's plan on the CPU: the rule and the pieces of common/stream_k.h for any
# shape and cluster count (tools/plan.c).
build/tools/plan: tools/plan.c common/stream_k.h common/tile_order.h common/tmap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ -lm
# The cost model's fit to calibration times (tools/fit.c).
build/tools/fit: tools/fit.c common/stream_k.h common/tile_order.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ -lm
CLUSTERS ?= 66
DRAM ?= 3352
plan: build/tools/plan
	@build/tools/plan $(SIZE) $(CLUSTERS) 52428800 $(DRAM)

test: $(BINS) $(STEPS:%=build/%/hopper.ptx) $(BW_STEPS:%=build/%/blackwell.ptx) \
      build/tests/host_tests $(STREAMS_GRAPH) build/broken/v4 build/broken/v4_raster/hopper.ptx \
      build/tools/plan build/tools/shapes build/tools/calib_v7 build/tools/fit
	@STEPS="$(STEPS)" BW_STEPS="$(BW_STEPS)" bash tests/run.sh

test-gpu: $(BINS) $(STREAMS_GRAPH) build/broken/v4 build/tools/shapes
	@STEPS="$(STEPS)" bash tests/gpu.sh

BENCH_CSV ?= plots/results.csv
bench: $(BINS)
	@STEPS="$(STEPS)" bash plots/bench.sh $(BENCH_CSV)

# The second sweep: small, skinny and awkward shapes (v7's subject), for the
# last steps by default (AWKWARD_STEPS=... for others) -> plots/awkward.csv.
AWKWARD_CSV ?= plots/awkward.csv
AWKWARD_STEPS ?= v6_cluster v7_stream_k
AWKWARD_SHAPES := 1024 1024 1024;2048 2048 2048;512 512 8192;256 256 8192;1024 1024 16384;64 8192 8192;8192 64 8192;16 8192 8192;4096 4096 4104;4104 4104 4096;3072 5120 7160
bench-awkward: $(BINS)
	@STEPS="$(AWKWARD_STEPS)" SHAPES="$(AWKWARD_SHAPES)" bash plots/bench.sh $(AWKWARD_CSV)

RANDOM_CSV ?= plots/random.csv
RANDOM_STEPS ?= v4_raster v5_clc v6_cluster v7_stream_k
SEED ?= $(shell date +%Y%m%d)
COUNT ?= 40
SET ?= aligned
bench-random: $(BINS) build/tools/shapes
	@STEPS="$(RANDOM_STEPS)" SEED="$(SEED)" COUNT="$(COUNT)" SET="$(SET)" bash plots/random.sh $(RANDOM_CSV)

plot:
	bash plots/plot.sh plots/results.csv plots/tflops plots/ratio
	if [ -s $(AWKWARD_CSV) ]; then bash plots/plot.sh $(AWKWARD_CSV) plots/awkward_tflops plots/awkward_ratio; fi
	if [ -s $(RANDOM_CSV) ]; then bash plots/plot_random.sh $(RANDOM_CSV) plots/random_ratio; fi

# README.md's tables (8192^3, random shapes, awkward shapes, the ladder's gains
# and diff sizes) are rendered from the CSVs, never copied by hand; make test
# fails when README.md differs from what this makes of it.
readme:
	bash tools/readme_tables.sh README.md

# ---- learner tools: make ptx|sass|ncu VERSION=vN, make diff FROM=vN TO=vM ----
# step_of(v4) = v4_raster (also accepts the full name); empty if no such step.
step_of = $(firstword $(foreach s,$(STEPS),$(if $(filter $(1) $(1)_%,$(s)),$(s))))
# The kernel files (tracks) a step has: hopper, and blackwell where it exists.
tracks_of = $(patsubst $(1)/%.cu,%,$(wildcard $(1)/hopper.cu $(1)/blackwell.cu))
bad_version = $(error $(1)='$(2)' is no step: use one of $(BINS) (e.g. $(1)=v4))

ifneq ($(filter ptx sass ncu,$(MAKECMDGOALS)),)
STEP := $(call step_of,$(VERSION))
ifeq ($(STEP),)
$(call bad_version,VERSION,$(VERSION))
endif
TRACKS := $(call tracks_of,$(STEP))
endif

ptx: $(TRACKS:%=build/$(STEP)/%.ptx)
	@for f in $^; do echo "$$f"; done

# The disassembler, where nvcc's own directory may hold it (nvcc on PATH can
# be a wrapper elsewhere; nvcc --dryrun names its real directory as _HERE_).
CUDA_BIN ?= $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^\#\$$ _HERE_=//p')
sass: $(TRACKS:%=build/$(STEP)/%.cubin)
	@CUDA_BIN="$(CUDA_BIN)" bash tools/sass.sh $^

SIZE ?= 8192 8192 8192
ncu: $(call SHORT,$(STEP)) $(TRACKS:%=build/$(STEP)/%.ptx)
	@CUDA_BIN="$(CUDA_BIN)" bash tools/ncu.sh $(STEP) ./$(call SHORT,$(STEP)) "$(SIZE)" $(TRACKS:%=build/$(STEP)/%.ptx)

ifneq ($(filter diff,$(MAKECMDGOALS)),)
TRACK ?= hopper
DIFF_FROM := $(call step_of,$(FROM))
DIFF_TO := $(call step_of,$(TO))
ifeq ($(DIFF_FROM),)
$(call bad_version,FROM,$(FROM))
endif
ifeq ($(DIFF_TO),)
$(call bad_version,TO,$(TO))
endif
ifeq ($(filter hopper blackwell,$(TRACK)),)
$(error TRACK='$(TRACK)' is not a track: use hopper or blackwell)
endif
DIFF_FILES := $(DIFF_FROM)/$(TRACK).cu $(DIFF_TO)/$(TRACK).cu
ifneq ($(words $(wildcard $(DIFF_FILES))),2)
$(error $(firstword $(filter-out $(wildcard $(DIFF_FILES)),$(DIFF_FILES))) does not exist (TRACK=$(TRACK)))
endif
endif

# diff exits 1 when the files differ, which is the point here; 2 is trouble.
diff:
	@diff -u $(DIFF_FILES); [ $$? -le 1 ]

clean:
	rm -rf build $(BINS)
