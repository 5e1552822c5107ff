"""The weighted-LCS table of one reference against VECTOR_LANES hypotheses,
one row at a time as a vector of the lanes' cells.

:func:`scoring.batch.kernels_lcs._wlcs_rows` writes the lanes as a loop
that Numba 0.62 leaves scalar: its loads of ``power[run]`` are indexed by
data, so LLVM cannot bound them against the stores and vectorises nothing
(its remark: "cannot identify array bounds"; the SLP vectoriser does not
help either). This module emits the row's loop as LLVM IR with vector
types instead (:func:`_wlcs_row`, a Numba intrinsic):

- a cell's step without a match is the same for every lane: ``max(up,
  left)`` with ties going up, and the run set to 0, one vector operation
  each;
- about one cell in thirty matches (words of 20-40-token sentences), so the
  lanes' diagonal values, with their two loads from the power table per
  lane, are computed only where some lane of the cell matches;
- ``left`` stays in a register from one cell to the next instead of making
  a round trip through memory.

The arithmetic per lane is the scalar kernel's, operation for operation
(``(c + f(k+1)) - f(k)`` in double precision, ``>=`` keeping ``up``), so
the values are bit-identical: tested against it. LLVM splits the
VECTOR_LANES-wide vectors into the machine's registers (two AVX-512 or four
AVX2 ones), which gives the processor independent dependency chains to
overlap; 16 lanes measured fastest (8: 4.0, 16: 3.7, 32: 4.2 us per eight
lanes of a 33 x 32 table, against 7.4 for the scalar kernel).
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

VECTOR_LANES = 16


@intrinsic
def _wlcs_row(
    typingctx, lanes, previous, current, previous_run, current_run, power, n_max, token
):
    """Row i of the table into ``current`` and ``current_run`` (cells 1 ..
    n_max), from row i - 1 in ``previous`` and ``previous_run``; ``token``
    is the local id of the reference's i-th word and ``lanes[j - 1]`` the
    lanes' j-th words. Every array is C-contiguous with VECTOR_LANES
    columns (``power`` is one-dimensional); ``current[0]`` holds zeros."""
    arrays = (lanes, previous, current, previous_run, current_run, power)
    if not all(isinstance(a, types.Array) and a.layout == "C" for a in arrays):
        raise TypingError("_wlcs_row needs C-contiguous arrays")
    signature = types.none(*arrays, n_max, token)

    def codegen(context, builder, signature, args):
        lanes_p, previous_p, current_p, previous_run_p, current_run_p, power_p = (
            context.make_array(array_type)(context, builder, value).data
            for array_type, value in zip(signature.args[:6], args[:6])
        )
        i32, i64 = ir.IntType(32), ir.IntType(64)
        n = context.cast(builder, args[6], signature.args[6], types.int64)
        word = context.cast(builder, args[7], signature.args[7], types.int32)
        doubles = ir.VectorType(ir.DoubleType(), VECTOR_LANES)
        ints = ir.VectorType(i32, VECTOR_LANES)
        width = ir.Constant(i64, VECTOR_LANES)

        def row_of(pointer, offset, vector_type):
            address = builder.gep(pointer, [offset])
            return builder.bitcast(address, vector_type.as_pointer())

        words = builder.insert_element(
            ir.Constant(ints, ir.Undefined), word, ir.Constant(i32, 0)
        )
        words = builder.shuffle_vector(
            words,
            ir.Constant(ints, ir.Undefined),
            ir.Constant(ints, [0] * VECTOR_LANES),
        )
        function = builder.function
        entry = builder.block
        cell = function.append_basic_block("wlcs.cell")
        matched = function.append_basic_block("wlcs.matched")
        store = function.append_basic_block("wlcs.store")
        done = function.append_basic_block("wlcs.done")
        first_left = builder.load(
            row_of(current_p, ir.Constant(i64, 0), doubles), align=8
        )
        builder.cbranch(builder.icmp_signed(">=", n, ir.Constant(i64, 1)), cell, done)

        builder.position_at_end(cell)
        j = builder.phi(i64)
        left = builder.phi(doubles)
        row = builder.mul(j, width)
        row_before = builder.sub(row, width)
        hypothesis_words = builder.load(row_of(lanes_p, row_before, ints), align=4)
        match = builder.icmp_signed("==", hypothesis_words, words)
        up = builder.load(row_of(previous_p, row, doubles), align=8)
        best = builder.select(builder.fcmp_ordered(">=", up, left), up, left)
        runs = builder.load(row_of(previous_run_p, row_before, ints), align=4)
        mask = builder.bitcast(match, ir.IntType(VECTOR_LANES))
        any_match = builder.icmp_unsigned("!=", mask, ir.Constant(mask.type, 0))
        builder.cbranch(any_match, matched, store)

        builder.position_at_end(matched)
        corner = builder.load(row_of(previous_p, row_before, doubles), align=8)
        power_at_run = ir.Constant(doubles, ir.Undefined)
        power_after_run = ir.Constant(doubles, ir.Undefined)
        for lane in range(VECTOR_LANES):
            index = ir.Constant(i32, lane)
            run = builder.sext(builder.extract_element(runs, index), i64)
            at_run = builder.load(builder.gep(power_p, [run]))
            after_run = builder.load(
                builder.gep(power_p, [builder.add(run, ir.Constant(i64, 1))])
            )
            power_at_run = builder.insert_element(power_at_run, at_run, index)
            power_after_run = builder.insert_element(power_after_run, after_run, index)
        diagonal = builder.fsub(builder.fadd(corner, power_after_run), power_at_run)
        with_matches = builder.select(match, diagonal, best)
        builder.branch(store)

        builder.position_at_end(store)
        value = builder.phi(doubles)
        value.add_incoming(best, cell)
        value.add_incoming(with_matches, matched)
        builder.store(value, row_of(current_p, row, doubles), align=8)
        one = ir.Constant(ints, [1] * VECTOR_LANES)
        zero = ir.Constant(ints, [0] * VECTOR_LANES)
        new_runs = builder.select(match, builder.add(runs, one), zero)
        builder.store(new_runs, row_of(current_run_p, row, ints), align=4)
        j_next = builder.add(j, ir.Constant(i64, 1))
        j.add_incoming(ir.Constant(i64, 1), entry)
        j.add_incoming(j_next, store)
        left.add_incoming(first_left, entry)
        left.add_incoming(value, store)
        builder.cbranch(builder.icmp_signed("<=", j_next, n), cell, done)

        builder.position_at_end(done)
        return context.get_dummy_value()

    return signature, codegen


@njit(cache=True, nogil=True)
def clear_table(n_max, previous, current, previous_run, current_run):
    """Row 0 of both row buffers (values and runs) as the table starts."""
    previous[: n_max + 1, :] = 0.0
    previous_run[: n_max + 1, :] = 0
    current[0, :] = 0.0
    current_run[0, :] = 0


@njit(cache=True, nogil=True)
def wlcs_rows_vector(reference, start, m, local, lanes, n_max, power, rows):
    """The scalar ``_wlcs_rows`` without back-trace directions, for
    ``lanes`` of VECTOR_LANES columns; ``rows`` is the scratch ``(previous,
    current, previous_run, current_run)``. Returns the buffer holding row
    m."""
    previous, current, previous_run, current_run = rows
    clear_table(n_max, previous, current, previous_run, current_run)
    for i in range(1, m + 1):
        token = local[reference[start + i - 1]]
        _wlcs_row(
            lanes, previous, current, previous_run, current_run, power, n_max, token
        )
        previous, current = current, previous
        previous_run, current_run = current_run, previous_run
    return previous
