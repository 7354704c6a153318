#!/bin/bash
# The second build's run: pp1.sh on pp_shapes2.txt, 3 rounds.
SHAPES=scratch/run/pp_shapes2.txt ROUNDS=3 exec bash scratch/run/pp1.sh
