#!/bin/bash
# The H200's run (h200_ab_uniform.txt, h200_test_gpu_0e08891.txt): ub1.sh without its checks, 2 rounds, stopping at
# 330 s, then make test-gpu STEPS=v7_stream_k as tg3.sh runs it. It ran as one script (dumping the SASS of the
# 128 x 64 kernel only); it is kept here as these two.
set -u
ROUNDS=2 CHECKS=0 LIM=330 bash scratch/run/ub1.sh
bash scratch/run/tg3.sh
