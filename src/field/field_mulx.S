/* MULX/ADCX/ADOX Montgomery multiplication and squaring for 4- and 6-limb moduli (x86-64,
 * BMI2 + ADX): mulred_mont_{mul,sqr}{4,6}_mulx, contracts in field_kernels.h. The modulus is a
 * parameter (p, n0 = −p^(−1) mod 2^64); every kernel is straight-line code with no branch and no
 * table, so its time does not depend on the data.
 *
 * Two-limb reduction steps. Every kernel reduces two limbs at a time with a 128-bit
 * m = (t0 + 2^64 t1)·N' mod 2^128, N' = −p^(−1) mod 2^128 = n0 + 2^64·N1, where
 * N1 = n0·(1 + hi(n0·p0) + n0·p1) mod 2^64 is derived from p and n0 at entry (p·N' ≡ −1 mod
 * 2^128 expands to hi(n0·p0) + 1 + p1·n0 + p0·N1 ≡ 0 mod 2^64, and −p0^(−1) = n0). m's low limb
 * is lo(t0·n0), its high limb hi(t0·n0) + t0·N1 + t1·n0: three multiplications that all start
 * from t0 and t1, so the serial chain "limb ready → IMUL → MULX → add into the next limb" that
 * bounds a one-limb-at-a-time reduction is paid once per two limbs. Adding m_lo·p (one row of n
 * MULX) zeroes t0, adding 2^64·m_hi·p (another row) zeroes t1. Against the same kernels with
 * one-limb steps this pays for 4 limbs (multiply and square) and is even for 6, whose multiply
 * is bound by its 72 MULX rather than by the chain (docs/kernels.md has the figures).
 *
 * Multiplication: operand scanning, the reduction interleaved per pair of rows. The accumulator
 * t is a window of n + 2 registers. Rows 2k and 2k+1 add a·b[2k] + 2^64·a·b[2k+1] (n MULX each;
 * ADCX adds the low halves into t[j], ADOX the high halves into t[j+1], two independent carry
 * chains); then the two-limb step adds m·p and the window slides down two registers (the macros
 * take the register names rotated), the two zeroed registers becoming the next pair's top. Row 0
 * writes the product straight into the window. Bounds: with a, b < p < 2^(64n−1) and t < 2p on
 * entry to a pair, t + a·(b[2k] + 2^64 b[2k+1]) + m·p <= 2p + 2(2^128 − 1)p − 2^128 + 1 <
 * 2^129·p < 2^(64(n+2)), so nothing carries out of the window, and divided by 2^128 it is < 2p
 * again. The result (< 2p) gets one subtraction of p (SUB/SBB, then CMOV on the borrow): [0, p).
 * 2n² + n/2 MULX, n IMUL.
 *
 * Squaring: a² = Σ a[i]² 2^(128i) + 2·Σ_{i<j} a[i]a[j] 2^(64(i+j)): the n(n−1)/2 products above
 * the diagonal, doubled (ADCX t,t) while the n squares are added (ADOX) — n(n+1)/2 MULX instead
 * of n². The 2n-limb square T = T_lo + 2^(64n)·T_hi is then reduced separately (SOS): T_hi is
 * parked, U = (T_lo + M·p)/2^(64n) is formed in a register window by n/2 two-limb steps
 * (U <= p since T_lo < 2^(64n) and M < 2^(64n)), and U + T_hi < p + 1 + p²/2^(64n) < 2p gets the
 * one conditional subtraction.
 *
 * The result stays in registers until every load of a and b is done, so r may alias a and/or b.
 * Only the callee-saved registers that are used are saved; the stack holds spills (r, n0, N1,
 * the squarings' T_hi, p) and nothing is read that was not written. */
#if defined(__x86_64__) && defined(__ELF__)

	.text

/* ---- helpers ------------------------------------------------------------------------------ */

.macro PUSHR reg
	pushq	\reg
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset \reg, 0
.endm
.macro POPR reg
	popq	\reg
	.cfi_adjust_cfa_offset -8
	.cfi_restore \reg
.endm

/* tj += lo(x·y), t(j+1) += hi(x·y) for x = %rdx, y = \src, on the CF and OF chains. */
.macro MADD src, lo, hi, tj, tj1
	mulxq	\src, \lo, \hi
	adcxq	\lo, \tj
	adoxq	\hi, \tj1
.endm

/* out = N1 = n0·(1 + hi(n0·p0) + n0·p1) mod 2^64 (the high limb of −p^(−1) mod 2^128); n0 a
 * register, p a pointer register; clobbers %rdx and scratch. */
.macro NPRIME1 n0, p, out, scratch
	movq	\n0, %rdx
	mulxq	0(\p), \scratch, \out
	movq	8(\p), \scratch
	imulq	\n0, \scratch
	leaq	1(\out, \scratch), \out
	imulq	\n0, \out
.endm

/* r = u − p if u >= p else u, for u < 2p in six registers; s0..s5 are scratch. */
.macro CSUB6 p, u0, u1, u2, u3, u4, u5, s0, s1, s2, s3, s4, s5
	movq	\u0, \s0
	subq	0(\p), \s0
	movq	\u1, \s1
	sbbq	8(\p), \s1
	movq	\u2, \s2
	sbbq	16(\p), \s2
	movq	\u3, \s3
	sbbq	24(\p), \s3
	movq	\u4, \s4
	sbbq	32(\p), \s4
	movq	\u5, \s5
	sbbq	40(\p), \s5
	cmovncq	\s0, \u0
	cmovncq	\s1, \u1
	cmovncq	\s2, \u2
	cmovncq	\s3, \u3
	cmovncq	\s4, \u4
	cmovncq	\s5, \u5
.endm

.macro CSUB4 p, u0, u1, u2, u3, s0, s1, s2, s3
	movq	\u0, \s0
	subq	0(\p), \s0
	movq	\u1, \s1
	sbbq	8(\p), \s1
	movq	\u2, \s2
	sbbq	16(\p), \s2
	movq	\u3, \s3
	sbbq	24(\p), \s3
	cmovncq	\s0, \u0
	cmovncq	\s1, \u1
	cmovncq	\s2, \u2
	cmovncq	\s3, \u3
.endm

/* ---- 6 limbs ------------------------------------------------------------------------------ */

/* t0..t6 += a·b[i] (b at %r9, a at %rsi, %r10 %r11 the halves); t6 is zero on entry (a register
 * the last reduction step zeroed, or cleared by the caller). */
.macro MULROW6 boff, t0, t1, t2, t3, t4, t5, t6
	movq	\boff(%r9), %rdx
	xorl	%r10d, %r10d			/* clears CF and OF */
	MADD	0(%rsi), %r10, %r11, \t0, \t1
	MADD	8(%rsi), %r10, %r11, \t1, \t2
	MADD	16(%rsi), %r10, %r11, \t2, \t3
	MADD	24(%rsi), %r10, %r11, \t3, \t4
	MADD	32(%rsi), %r10, %r11, \t4, \t5
	MADD	40(%rsi), %r10, %r11, \t5, \t6
	adcq	$0, \t6
.endm

/* The two-limb step on t0..t7 (< 2^512 before and after): t += m_lo·p + 2^64·m_hi·p, t0 and t1
 * become 0. p a pointer register; n0 and N1 registers or memory; mh (m_hi), lo, hi registers.
 * t7live = 1 (the multiplication, where t7 need not be 0): the carries out of t6 in the m_lo row
 * go into t7; none leaves t7, since the whole sum stays below 2^512 and each partial sum is at
 * most the whole. t7live = 0 (the squaring: t < 2^384, t6 = t7 = 0 on entry): t + m_lo·p <
 * 2^448, no carry leaves t6. */
.macro RED6X2 t0, t1, t2, t3, t4, t5, t6, t7, p, n0, n1, mh, lo, hi, t7live
	movq	\t0, %rdx
	mulxq	\n0, %rdx, \mh			/* rdx = m_lo, mh = hi(t0·n0) */
	movq	\t0, \lo
	imulq	\n1, \lo
	movq	\t1, \hi
	imulq	\n0, \hi
	addq	\lo, \mh
	addq	\hi, \mh
	xorq	\lo, \lo
	MADD	0(\p), \lo, \hi, \t0, \t1
	MADD	8(\p), \lo, \hi, \t1, \t2
	MADD	16(\p), \lo, \hi, \t2, \t3
	MADD	24(\p), \lo, \hi, \t3, \t4
	MADD	32(\p), \lo, \hi, \t4, \t5
	MADD	40(\p), \lo, \hi, \t5, \t6
	adcxq	\t0, \t6			/* t0 == 0 */
.if \t7live
	adcxq	\t0, \t7
	adoxq	\t0, \t7
.endif
	movq	\mh, %rdx
	xorq	\lo, \lo
	MADD	0(\p), \lo, \hi, \t1, \t2
	MADD	8(\p), \lo, \hi, \t2, \t3
	MADD	16(\p), \lo, \hi, \t3, \t4
	MADD	24(\p), \lo, \hi, \t4, \t5
	MADD	32(\p), \lo, \hi, \t5, \t6
	MADD	40(\p), \lo, \hi, \t6, \t7
	adcxq	\t1, \t7			/* t1 == 0 */
.endm

/* void mulred_mont_mul6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                            const uint64_t p[6], uint64_t n0)
 * %rsi a, %r9 b, %rcx p; window %rax %rbx %rbp %r12 %r13 %r14 %r15 %r8 (rotating by two);
 * %r10, %r11 the product halves, %rdi m_hi. Frame: 0(%rsp) r, 8 n0, 16 N1. */
	.globl	mulred_mont_mul6_mulx
	.hidden	mulred_mont_mul6_mulx
	.type	mulred_mont_mul6_mulx, @function
	.p2align 5
mulred_mont_mul6_mulx:
	.cfi_startproc
	PUSHR	%rbp
	PUSHR	%rbx
	PUSHR	%r12
	PUSHR	%r13
	PUSHR	%r14
	PUSHR	%r15
	subq	$24, %rsp
	.cfi_adjust_cfa_offset 24
	movq	%rdi, 0(%rsp)
	movq	%r8, 8(%rsp)
	movq	%rdx, %r9
	NPRIME1	%r8, %rcx, %r11, %r10
	movq	%r11, 16(%rsp)
	/* row 0: t = a·b[0], written straight into the window */
	movq	0(%r9), %rdx
	mulxq	0(%rsi), %rax, %rbx
	mulxq	8(%rsi), %r10, %rbp
	addq	%r10, %rbx
	mulxq	16(%rsi), %r10, %r12
	adcq	%r10, %rbp
	mulxq	24(%rsi), %r10, %r13
	adcq	%r10, %r12
	mulxq	32(%rsi), %r10, %r14
	adcq	%r10, %r13
	mulxq	40(%rsi), %r10, %r15
	adcq	%r10, %r14
	adcq	$0, %r15
	xorl	%r8d, %r8d
	MULROW6	8, %rbx, %rbp, %r12, %r13, %r14, %r15, %r8
	RED6X2	%rax, %rbx, %rbp, %r12, %r13, %r14, %r15, %r8, %rcx, 8(%rsp), 16(%rsp), %rdi, %r10, %r11, 1
	MULROW6	16, %rbp, %r12, %r13, %r14, %r15, %r8, %rax
	MULROW6	24, %r12, %r13, %r14, %r15, %r8, %rax, %rbx
	RED6X2	%rbp, %r12, %r13, %r14, %r15, %r8, %rax, %rbx, %rcx, 8(%rsp), 16(%rsp), %rdi, %r10, %r11, 1
	MULROW6	32, %r13, %r14, %r15, %r8, %rax, %rbx, %rbp
	MULROW6	40, %r14, %r15, %r8, %rax, %rbx, %rbp, %r12
	RED6X2	%r13, %r14, %r15, %r8, %rax, %rbx, %rbp, %r12, %rcx, 8(%rsp), 16(%rsp), %rdi, %r10, %r11, 1
	/* t = (r15 r8 rax rbx rbp r12) < 2p; a, b are dead: scratch for the subtraction */
	CSUB6	%rcx, %r15, %r8, %rax, %rbx, %rbp, %r12, %r10, %r11, %rdx, %rsi, %r9, %r13
	movq	0(%rsp), %rdi
	movq	%r15, 0(%rdi)
	movq	%r8, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rbx, 24(%rdi)
	movq	%rbp, 32(%rdi)
	movq	%r12, 40(%rdi)
	addq	$24, %rsp
	.cfi_adjust_cfa_offset -24
	POPR	%r15
	POPR	%r14
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_mul6_mulx, .-mulred_mont_mul6_mulx

/* void mulred_mont_sqr6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
 *                            uint64_t n0)
 * Frame: 0..40(%rsp) T_hi, 48 r, 56 p, 64 n0. */
	.globl	mulred_mont_sqr6_mulx
	.hidden	mulred_mont_sqr6_mulx
	.type	mulred_mont_sqr6_mulx, @function
	.p2align 5
mulred_mont_sqr6_mulx:
	.cfi_startproc
	PUSHR	%rbp
	PUSHR	%rbx
	PUSHR	%r12
	PUSHR	%r13
	PUSHR	%r14
	PUSHR	%r15
	subq	$72, %rsp
	.cfi_adjust_cfa_offset 72
	movq	%rdi, 48(%rsp)
	movq	%rdx, 56(%rsp)
	movq	%rcx, 64(%rsp)
	/* products above the diagonal into s1..s10 = r8 r9 r10 r11 r12 r13 r14 r15 rbx rbp
	 * (s_k: column k); %rax, %rcx the product halves */
	movq	0(%rsi), %rdx			/* a0·(a1..a5): columns 1..6 */
	mulxq	8(%rsi), %r8, %r9
	mulxq	16(%rsi), %rax, %r10
	addq	%rax, %r9
	mulxq	24(%rsi), %rax, %r11
	adcq	%rax, %r10
	mulxq	32(%rsi), %rax, %r12
	adcq	%rax, %r11
	mulxq	40(%rsi), %rax, %r13
	adcq	%rax, %r12
	adcq	$0, %r13
	movq	8(%rsi), %rdx			/* a1·(a2..a5): columns 3..7 */
	xorl	%r14d, %r14d
	MADD	16(%rsi), %rax, %rcx, %r10, %r11
	MADD	24(%rsi), %rax, %rcx, %r11, %r12
	MADD	32(%rsi), %rax, %rcx, %r12, %r13
	MADD	40(%rsi), %rax, %rcx, %r13, %r14
	adcq	$0, %r14
	movq	16(%rsi), %rdx			/* a2·(a3..a5): columns 5..8 */
	xorl	%r15d, %r15d
	MADD	24(%rsi), %rax, %rcx, %r12, %r13
	MADD	32(%rsi), %rax, %rcx, %r13, %r14
	MADD	40(%rsi), %rax, %rcx, %r14, %r15
	adcq	$0, %r15
	movq	24(%rsi), %rdx			/* a3·(a4, a5): columns 7..9 */
	xorl	%ebx, %ebx
	MADD	32(%rsi), %rax, %rcx, %r14, %r15
	MADD	40(%rsi), %rax, %rcx, %r15, %rbx
	adcq	$0, %rbx
	movq	32(%rsi), %rdx			/* a4·a5: columns 9, 10 */
	mulxq	40(%rsi), %rax, %rbp
	addq	%rax, %rbx
	adcq	$0, %rbp
	/* double (CF chain) and add the squares (OF chain): t0 %rdi, t1..t10 = s1..s10, t11
	 * %rcx; t6..t11 go to the frame as they are done */
	movq	0(%rsi), %rdx
	mulxq	%rdx, %rdi, %rcx
	xorl	%eax, %eax
	adcxq	%r8, %r8
	adoxq	%rcx, %r8
	movq	8(%rsi), %rdx
	mulxq	%rdx, %rax, %rcx
	adcxq	%r9, %r9
	adoxq	%rax, %r9
	adcxq	%r10, %r10
	adoxq	%rcx, %r10
	movq	16(%rsi), %rdx
	mulxq	%rdx, %rax, %rcx
	adcxq	%r11, %r11
	adoxq	%rax, %r11
	adcxq	%r12, %r12
	adoxq	%rcx, %r12
	movq	24(%rsi), %rdx
	mulxq	%rdx, %rax, %rcx
	adcxq	%r13, %r13
	adoxq	%rax, %r13
	movq	%r13, 0(%rsp)
	adcxq	%r14, %r14
	adoxq	%rcx, %r14
	movq	%r14, 8(%rsp)
	movq	32(%rsi), %rdx
	mulxq	%rdx, %rax, %rcx
	adcxq	%r15, %r15
	adoxq	%rax, %r15
	movq	%r15, 16(%rsp)
	adcxq	%rbx, %rbx
	adoxq	%rcx, %rbx
	movq	%rbx, 24(%rsp)
	movq	40(%rsi), %rdx
	mulxq	%rdx, %rax, %rcx
	adcxq	%rbp, %rbp
	adoxq	%rax, %rbp
	movq	%rbp, 32(%rsp)
	movl	$0, %r13d			/* MOV leaves the flags alone */
	adcxq	%r13, %rcx
	adoxq	%r13, %rcx
	movq	%rcx, 40(%rsp)
	/* reduce T_lo = (rdi r8 r9 r10 r11 r12) in the window with r13 = r14 = 0 on top */
	movq	56(%rsp), %rsi
	movq	64(%rsp), %rbx
	NPRIME1	%rbx, %rsi, %rbp, %rax
	xorl	%r14d, %r14d
	RED6X2	%rdi, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %rsi, %rbx, %rbp, %r15, %rax, %rcx, 0
	RED6X2	%r9, %r10, %r11, %r12, %r13, %r14, %rdi, %r8, %rsi, %rbx, %rbp, %r15, %rax, %rcx, 0
	RED6X2	%r11, %r12, %r13, %r14, %rdi, %r8, %r9, %r10, %rsi, %rbx, %rbp, %r15, %rax, %rcx, 0
	/* U = (r13 r14 rdi r8 r9 r10) <= p; U + T_hi < 2p */
	addq	0(%rsp), %r13
	adcq	8(%rsp), %r14
	adcq	16(%rsp), %rdi
	adcq	24(%rsp), %r8
	adcq	32(%rsp), %r9
	adcq	40(%rsp), %r10
	CSUB6	%rsi, %r13, %r14, %rdi, %r8, %r9, %r10, %rax, %rcx, %rdx, %r11, %r12, %r15
	movq	48(%rsp), %rax
	movq	%r13, 0(%rax)
	movq	%r14, 8(%rax)
	movq	%rdi, 16(%rax)
	movq	%r8, 24(%rax)
	movq	%r9, 32(%rax)
	movq	%r10, 40(%rax)
	addq	$72, %rsp
	.cfi_adjust_cfa_offset -72
	POPR	%r15
	POPR	%r14
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_sqr6_mulx, .-mulred_mont_sqr6_mulx

/* ---- 4 limbs ------------------------------------------------------------------------------ */

/* t0..t4 += a·b[i] (b at %r9, a at %rsi, %r10 %r11 the halves); t4 is zero on entry. */
.macro MULROW4 boff, t0, t1, t2, t3, t4
	movq	\boff(%r9), %rdx
	xorl	%r10d, %r10d			/* clears CF and OF */
	MADD	0(%rsi), %r10, %r11, \t0, \t1
	MADD	8(%rsi), %r10, %r11, \t1, \t2
	MADD	16(%rsi), %r10, %r11, \t2, \t3
	MADD	24(%rsi), %r10, %r11, \t3, \t4
	adcq	$0, \t4
.endm

/* The two-limb step on t0..t5 (< 2^384 before and after), as RED6X2 (t5live as t7live there):
 * p %rcx, n0 %r8, N1 %r15, m_hi %rdi, %r10 %r11 the halves; t0 and t1 become 0. */
.macro RED4X2 t0, t1, t2, t3, t4, t5, t5live
	movq	\t0, %rdx
	mulxq	%r8, %rdx, %rdi			/* rdx = m_lo, rdi = hi(t0·n0) */
	movq	\t0, %r10
	imulq	%r15, %r10
	movq	\t1, %r11
	imulq	%r8, %r11
	addq	%r10, %rdi
	addq	%r11, %rdi
	xorl	%r10d, %r10d
	MADD	0(%rcx), %r10, %r11, \t0, \t1
	MADD	8(%rcx), %r10, %r11, \t1, \t2
	MADD	16(%rcx), %r10, %r11, \t2, \t3
	MADD	24(%rcx), %r10, %r11, \t3, \t4
	adcxq	\t0, \t4			/* t0 == 0 */
.if \t5live
	adcxq	\t0, \t5
	adoxq	\t0, \t5
.endif
	movq	%rdi, %rdx
	xorl	%r10d, %r10d
	MADD	0(%rcx), %r10, %r11, \t1, \t2
	MADD	8(%rcx), %r10, %r11, \t2, \t3
	MADD	16(%rcx), %r10, %r11, \t3, \t4
	MADD	24(%rcx), %r10, %r11, \t4, \t5
	adcxq	\t1, \t5			/* t1 == 0 */
.endm

/* void mulred_mont_mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                            const uint64_t p[4], uint64_t n0)
 * %rsi a, %r9 b, %rcx p, %r8 n0, %r15 N1; window %rax %rbx %rbp %r12 %r13 %r14 (rotating by
 * two). Frame: 0(%rsp) r. */
	.globl	mulred_mont_mul4_mulx
	.hidden	mulred_mont_mul4_mulx
	.type	mulred_mont_mul4_mulx, @function
	.p2align 5
mulred_mont_mul4_mulx:
	.cfi_startproc
	PUSHR	%rbp
	PUSHR	%rbx
	PUSHR	%r12
	PUSHR	%r13
	PUSHR	%r14
	PUSHR	%r15
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	movq	%rdi, 0(%rsp)
	movq	%rdx, %r9
	NPRIME1	%r8, %rcx, %r15, %r10
	movq	0(%r9), %rdx
	mulxq	0(%rsi), %rax, %rbx
	mulxq	8(%rsi), %r10, %rbp
	addq	%r10, %rbx
	mulxq	16(%rsi), %r10, %r12
	adcq	%r10, %rbp
	mulxq	24(%rsi), %r10, %r13
	adcq	%r10, %r12
	adcq	$0, %r13
	xorl	%r14d, %r14d
	MULROW4	8, %rbx, %rbp, %r12, %r13, %r14
	RED4X2	%rax, %rbx, %rbp, %r12, %r13, %r14, 1
	MULROW4	16, %rbp, %r12, %r13, %r14, %rax
	MULROW4	24, %r12, %r13, %r14, %rax, %rbx
	RED4X2	%rbp, %r12, %r13, %r14, %rax, %rbx, 1
	/* t = (r13 r14 rax rbx) < 2p */
	CSUB4	%rcx, %r13, %r14, %rax, %rbx, %r10, %r11, %rdx, %rsi
	movq	0(%rsp), %rdi
	movq	%r13, 0(%rdi)
	movq	%r14, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rbx, 24(%rdi)
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	POPR	%r15
	POPR	%r14
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_mul4_mulx, .-mulred_mont_mul4_mulx

/* void mulred_mont_sqr4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
 *                            uint64_t n0)
 * %rsi a, %rcx p, %r8 n0; the off-diagonal products s1..s6 in %rbx %rbp %r12 %r13 %r14 %r9, the
 * square t0 %rax, t1..t6 = s1..s6, t7 %rdi; T_hi = t4..t7 to the frame, then T_lo = (rax rbx
 * rbp r12) is reduced by RED4X2 with %r13 %r14 zeroed on top. Frame: 0(%rsp) r, 8..32 T_hi. */
	.globl	mulred_mont_sqr4_mulx
	.hidden	mulred_mont_sqr4_mulx
	.type	mulred_mont_sqr4_mulx, @function
	.p2align 5
mulred_mont_sqr4_mulx:
	.cfi_startproc
	PUSHR	%rbp
	PUSHR	%rbx
	PUSHR	%r12
	PUSHR	%r13
	PUSHR	%r14
	PUSHR	%r15
	subq	$40, %rsp
	.cfi_adjust_cfa_offset 40
	movq	%rdi, 0(%rsp)
	movq	%rcx, %r8
	movq	%rdx, %rcx
	movq	0(%rsi), %rdx			/* a0·(a1, a2, a3): columns 1..4 */
	mulxq	8(%rsi), %rbx, %rbp
	mulxq	16(%rsi), %r10, %r12
	addq	%r10, %rbp
	mulxq	24(%rsi), %r10, %r13
	adcq	%r10, %r12
	adcq	$0, %r13
	movq	8(%rsi), %rdx			/* a1·(a2, a3): columns 3..5 */
	xorl	%r14d, %r14d
	MADD	16(%rsi), %r10, %r11, %r12, %r13
	MADD	24(%rsi), %r10, %r11, %r13, %r14
	adcq	$0, %r14
	movq	16(%rsi), %rdx			/* a2·a3: columns 5, 6 */
	mulxq	24(%rsi), %r10, %r9
	addq	%r10, %r14
	adcq	$0, %r9
	/* double (CF chain) and add the squares (OF chain) */
	movq	0(%rsi), %rdx
	mulxq	%rdx, %rax, %r11
	xorl	%r10d, %r10d
	adcxq	%rbx, %rbx
	adoxq	%r11, %rbx
	movq	8(%rsi), %rdx
	mulxq	%rdx, %r10, %r11
	adcxq	%rbp, %rbp
	adoxq	%r10, %rbp
	adcxq	%r12, %r12
	adoxq	%r11, %r12
	movq	16(%rsi), %rdx
	mulxq	%rdx, %r10, %r11
	adcxq	%r13, %r13
	adoxq	%r10, %r13
	movq	%r13, 8(%rsp)
	adcxq	%r14, %r14
	adoxq	%r11, %r14
	movq	%r14, 16(%rsp)
	movq	24(%rsi), %rdx
	mulxq	%rdx, %r10, %rdi
	adcxq	%r9, %r9
	adoxq	%r10, %r9
	movq	%r9, 24(%rsp)
	movl	$0, %r10d			/* MOV leaves the flags alone */
	adcxq	%r10, %rdi
	adoxq	%r10, %rdi
	movq	%rdi, 32(%rsp)
	NPRIME1	%r8, %rcx, %r15, %r10
	xorl	%r13d, %r13d
	xorl	%r14d, %r14d
	RED4X2	%rax, %rbx, %rbp, %r12, %r13, %r14, 0
	RED4X2	%rbp, %r12, %r13, %r14, %rax, %rbx, 0
	/* U = (r13 r14 rax rbx) <= p; U + T_hi < 2p */
	addq	8(%rsp), %r13
	adcq	16(%rsp), %r14
	adcq	24(%rsp), %rax
	adcq	32(%rsp), %rbx
	CSUB4	%rcx, %r13, %r14, %rax, %rbx, %r10, %r11, %rdx, %rsi
	movq	0(%rsp), %rdi
	movq	%r13, 0(%rdi)
	movq	%r14, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rbx, 24(%rdi)
	addq	$40, %rsp
	.cfi_adjust_cfa_offset -40
	POPR	%r15
	POPR	%r14
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_sqr4_mulx, .-mulred_mont_sqr4_mulx

#endif

	.section .note.GNU-stack, "", @progbits
