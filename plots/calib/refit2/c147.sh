#!/bin/bash
# c143.sh over the fit set, then the held-out set, under one DEADLINE (s from the start). usage: REV=.. DEADLINE=.. bash c147.sh
T0=$(date +%s)
REV=${REV:?} SET=fit DEADLINE=${DEADLINE:?} bash scratch/run/c143.sh
REV=$REV SET=heldout DEADLINE=$(( DEADLINE - ($(date +%s) - T0) )) bash scratch/run/c143.sh
