/* MULX/ADCX/ADOX Montgomery multiplication and squaring for 4- and 6-limb moduli (x86-64,
 * BMI2 + ADX): mulred_mont_{mul,sqr}{4,6}_mulx, contracts in field_kernels.h. The modulus is a
 * parameter (p, n0 = −p^(−1) mod 2^64); every kernel is straight-line code with no branch and no
 * table, so its time does not depend on the data.
 *
 * Multiplication: operand scanning with the reduction interleaved per row (CIOS). The
 * accumulator t is a window of n + 1 registers. Row i adds a·b[i] (n MULX; ADCX adds the low
 * halves into t[j], ADOX the high halves into t[j+1], two independent carry chains), then
 * m = t[0]·n0 (IMUL) and t += m·p the same way: t[0] becomes 0 and the window slides down one
 * register (the macros take the register names rotated), the zeroed register becoming the next
 * row's top. Row 0 writes the product straight into the window (no additions into zeros). With
 * a, b < p and t < 2p, t + a·b[i] + m·p < 2^64·2p <= 2^(64(n+1)) for p < 2^(64n−1), so nothing
 * carries out of the window and the result is < 2p: one subtraction of p (SUB/SBB, then CMOV on
 * the borrow) gives [0, p). 2n² MULX, n IMUL.
 *
 * Squaring: a² = Σ a[i]² 2^(128i) + 2·Σ_{i<j} a[i]a[j] 2^(64(i+j)): the n(n−1)/2 products above
 * the diagonal, doubled (ADCX t,t) while the n squares are added (ADOX) — n(n+1)/2 MULX instead
 * of n². The 2n-limb square T = T_lo + 2^(64n)·T_hi is then reduced separately (SOS): T_hi is
 * parked, U = (T_lo + M·p)/2^(64n) is formed in a register window (U <= p since T_lo < 2^(64n)),
 * and U + T_hi < p + 1 + p²/2^(64n) < 2p gets the one conditional subtraction. The 6-limb
 * squaring reduces two limbs per step with a 128-bit m = (t0 + 2^64 t1)·N' mod 2^128,
 * N' = −p^(−1) mod 2^128 = n0 + 2^64·N1, N1 = n0·(1 + hi(n0·p0) + n0·p1) mod 2^64 (derived from
 * p and n0 at entry): the serial chain IMUL → MULX → ADD between rows is paid once per two rows.
 *
 * The result stays in registers until every load of a and b is done, so r may alias a and/or b.
 * Only the callee-saved registers that are used are saved; the stack holds spills (the squaring's
 * T_hi, r, p, n0) and nothing is read that was not written. */
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

/* t0..t6 += a·b[i] (%rdx = b[i], a at %rsi); t6 is zero on entry (the register the last
 * reduction zeroed) and is cleared again by the XOR that also clears CF and OF. */
.macro ROW6 t0, t1, t2, t3, t4, t5, t6, lo, hi
	xorq	\t6, \t6
	MADD	0(%rsi), \lo, \hi, \t0, \t1
	MADD	8(%rsi), \lo, \hi, \t1, \t2
	MADD	16(%rsi), \lo, \hi, \t2, \t3
	MADD	24(%rsi), \lo, \hi, \t3, \t4
	MADD	32(%rsi), \lo, \hi, \t4, \t5
	MADD	40(%rsi), \lo, \hi, \t5, \t6
	adcq	$0, \t6
.endm


/* m = t0·n0; t0..t6 += m·p (%rcx p, %r8 n0, %r10 %r11 the halves). t0 becomes 0
 * (lo(m·p0) = −t0) and is the zero that takes the last carry into t6. */
.macro RED6M t0, t1, t2, t3, t4, t5, t6
	movq	\t0, %rdx
	imulq	%r8, %rdx
	xorl	%r10d, %r10d
	MADD	0(%rcx), %r10, %r11, \t0, \t1
	MADD	8(%rcx), %r10, %r11, \t1, \t2
	MADD	16(%rcx), %r10, %r11, \t2, \t3
	MADD	24(%rcx), %r10, %r11, \t3, \t4
	MADD	32(%rcx), %r10, %r11, \t4, \t5
	MADD	40(%rcx), %r10, %r11, \t5, \t6
	adcxq	\t0, \t6
.endm

.macro MULROW6 boff, t0, t1, t2, t3, t4, t5, t6
	movq	\boff(%r9), %rdx
	ROW6	\t0, \t1, \t2, \t3, \t4, \t5, \t6, %r10, %r11
.endm

/* void mulred_mont_mul6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                            const uint64_t p[6], uint64_t n0)
 * %rdi r, %rsi a, %r9 b, %rcx p, %r8 n0; window %rax %rbx %rbp %r12 %r13 %r14 %r15 (rotating);
 * %r10, %r11 the product halves. */
	.globl	mulred_mont_mul6_mulx
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
	movq	%rdx, %r9
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
	RED6M	%rax, %rbx, %rbp, %r12, %r13, %r14, %r15
	MULROW6	8, %rbx, %rbp, %r12, %r13, %r14, %r15, %rax
	RED6M	%rbx, %rbp, %r12, %r13, %r14, %r15, %rax
	MULROW6	16, %rbp, %r12, %r13, %r14, %r15, %rax, %rbx
	RED6M	%rbp, %r12, %r13, %r14, %r15, %rax, %rbx
	MULROW6	24, %r12, %r13, %r14, %r15, %rax, %rbx, %rbp
	RED6M	%r12, %r13, %r14, %r15, %rax, %rbx, %rbp
	MULROW6	32, %r13, %r14, %r15, %rax, %rbx, %rbp, %r12
	RED6M	%r13, %r14, %r15, %rax, %rbx, %rbp, %r12
	MULROW6	40, %r14, %r15, %rax, %rbx, %rbp, %r12, %r13
	RED6M	%r14, %r15, %rax, %rbx, %rbp, %r12, %r13
	/* t = (r15 rax rbx rbp r12 r13) < 2p; a, b, n0 are dead: scratch for the subtraction */
	CSUB6	%rcx, %r15, %rax, %rbx, %rbp, %r12, %r13, %r10, %r11, %rdx, %rsi, %r9, %r8
	movq	%r15, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rbx, 16(%rdi)
	movq	%rbp, 24(%rdi)
	movq	%r12, 32(%rdi)
	movq	%r13, 40(%rdi)
	POPR	%r15
	POPR	%r14
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_mul6_mulx, .-mulred_mont_mul6_mulx

/* Two reduction rows: m = (t0 + 2^64 t1)·N' mod 2^128, m_lo = lo(t0·n0),
 * m_hi = hi(t0·n0) + t0·N1 + t1·n0; t0..t7 += m_lo·p + 2^64·m_hi·p; t0 and t1 become 0.
 * %rsi p, %rbx n0, %rbp N1, %r15 m_hi; %rax, %rcx the product halves. On entry t0..t5 hold a
 * value < 2^384 and t6 = t7 = 0, so t + m_lo·p < 2^448 stays in t0..t6 (no carry into t7) and
 * t + m·p < 2^512 in t0..t7. */
.macro RED6X2 t0, t1, t2, t3, t4, t5, t6, t7
	movq	\t0, %rdx
	mulxq	%rbx, %rdx, %r15
	movq	\t0, %rax
	imulq	%rbp, %rax
	movq	\t1, %rcx
	imulq	%rbx, %rcx
	addq	%rax, %r15
	addq	%rcx, %r15
	xorl	%eax, %eax
	MADD	0(%rsi), %rax, %rcx, \t0, \t1
	MADD	8(%rsi), %rax, %rcx, \t1, \t2
	MADD	16(%rsi), %rax, %rcx, \t2, \t3
	MADD	24(%rsi), %rax, %rcx, \t3, \t4
	MADD	32(%rsi), %rax, %rcx, \t4, \t5
	MADD	40(%rsi), %rax, %rcx, \t5, \t6
	adcxq	\t0, \t6
	movq	%r15, %rdx
	xorl	%eax, %eax
	MADD	0(%rsi), %rax, %rcx, \t1, \t2
	MADD	8(%rsi), %rax, %rcx, \t2, \t3
	MADD	16(%rsi), %rax, %rcx, \t3, \t4
	MADD	24(%rsi), %rax, %rcx, \t4, \t5
	MADD	32(%rsi), %rax, %rcx, \t5, \t6
	MADD	40(%rsi), %rax, %rcx, \t6, \t7
	adcxq	\t1, \t7
.endm

/* void mulred_mont_sqr6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
 *                            uint64_t n0)
 * Frame: 0..40(%rsp) T_hi, 48 r, 56 p, 64 n0. */
	.globl	mulred_mont_sqr6_mulx
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
	movq	%rbx, %rdx			/* N1 = n0·(1 + hi(n0·p0) + n0·p1) */
	mulxq	0(%rsi), %rax, %rbp
	movq	8(%rsi), %rax
	imulq	%rbx, %rax
	leaq	1(%rbp, %rax), %rbp
	imulq	%rbx, %rbp
	xorl	%r14d, %r14d
	RED6X2	%rdi, %r8, %r9, %r10, %r11, %r12, %r13, %r14
	RED6X2	%r9, %r10, %r11, %r12, %r13, %r14, %rdi, %r8
	RED6X2	%r11, %r12, %r13, %r14, %rdi, %r8, %r9, %r10
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

/* m = t0·n0; t0..t4 += m·p (%rcx p, %r8 n0, %r10 %r11 the halves); t0 becomes 0. */
.macro RED4M t0, t1, t2, t3, t4
	movq	\t0, %rdx
	imulq	%r8, %rdx
	xorl	%r10d, %r10d
	MADD	0(%rcx), %r10, %r11, \t0, \t1
	MADD	8(%rcx), %r10, %r11, \t1, \t2
	MADD	16(%rcx), %r10, %r11, \t2, \t3
	MADD	24(%rcx), %r10, %r11, \t3, \t4
	adcxq	\t0, \t4
.endm

/* t0..t4 += a·b[i] (b at %r9); t4 is zero on entry. */
.macro MULROW4 boff, t0, t1, t2, t3, t4
	movq	\boff(%r9), %rdx
	xorq	\t4, \t4
	MADD	0(%rsi), %r10, %r11, \t0, \t1
	MADD	8(%rsi), %r10, %r11, \t1, \t2
	MADD	16(%rsi), %r10, %r11, \t2, \t3
	MADD	24(%rsi), %r10, %r11, \t3, \t4
	adcq	$0, \t4
.endm

/* void mulred_mont_mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                            const uint64_t p[4], uint64_t n0)
 * %rdi r, %rsi a, %r9 b, %rcx p, %r8 n0; window %rax %rbx %rbp %r12 %r13. */
	.globl	mulred_mont_mul4_mulx
	.type	mulred_mont_mul4_mulx, @function
	.p2align 5
mulred_mont_mul4_mulx:
	.cfi_startproc
	PUSHR	%rbp
	PUSHR	%rbx
	PUSHR	%r12
	PUSHR	%r13
	movq	%rdx, %r9
	movq	0(%r9), %rdx
	mulxq	0(%rsi), %rax, %rbx
	mulxq	8(%rsi), %r10, %rbp
	addq	%r10, %rbx
	mulxq	16(%rsi), %r10, %r12
	adcq	%r10, %rbp
	mulxq	24(%rsi), %r10, %r13
	adcq	%r10, %r12
	adcq	$0, %r13
	RED4M	%rax, %rbx, %rbp, %r12, %r13
	MULROW4	8, %rbx, %rbp, %r12, %r13, %rax
	RED4M	%rbx, %rbp, %r12, %r13, %rax
	MULROW4	16, %rbp, %r12, %r13, %rax, %rbx
	RED4M	%rbp, %r12, %r13, %rax, %rbx
	MULROW4	24, %r12, %r13, %rax, %rbx, %rbp
	RED4M	%r12, %r13, %rax, %rbx, %rbp
	/* t = (r13 rax rbx rbp) < 2p */
	CSUB4	%rcx, %r13, %rax, %rbx, %rbp, %r10, %r11, %rdx, %rsi
	movq	%r13, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rbx, 16(%rdi)
	movq	%rbp, 24(%rdi)
	POPR	%r13
	POPR	%r12
	POPR	%rbx
	POPR	%rbp
	ret
	.cfi_endproc
	.size	mulred_mont_mul4_mulx, .-mulred_mont_mul4_mulx

/* void mulred_mont_sqr4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
 *                            uint64_t n0)
 * %rdi r, %rsi a, %r15 p, %rcx n0. Off-diagonal s1..s6 = r8..r13; the square is t0 %rbx,
 * t1..t6 = s1..s6, t7 %rbp, all in registers; T_lo = (rbx r8 r9 r10) is reduced one row at a
 * time in a window topped by %rsi (a is dead by then); %rax, %r14 the product halves. */
.macro RED4S t0, t1, t2, t3, t4
	movq	\t0, %rdx
	imulq	%rcx, %rdx
	xorl	%eax, %eax
	MADD	0(%r15), %rax, %r14, \t0, \t1
	MADD	8(%r15), %rax, %r14, \t1, \t2
	MADD	16(%r15), %rax, %r14, \t2, \t3
	MADD	24(%r15), %rax, %r14, \t3, \t4
	adcxq	\t0, \t4
.endm

	.globl	mulred_mont_sqr4_mulx
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
	movq	%rdx, %r15
	movq	0(%rsi), %rdx			/* a0·(a1, a2, a3): columns 1..4 */
	mulxq	8(%rsi), %r8, %r9
	mulxq	16(%rsi), %rax, %r10
	addq	%rax, %r9
	mulxq	24(%rsi), %rax, %r11
	adcq	%rax, %r10
	adcq	$0, %r11
	movq	8(%rsi), %rdx			/* a1·(a2, a3): columns 3..5 */
	xorl	%r12d, %r12d
	MADD	16(%rsi), %rax, %r14, %r10, %r11
	MADD	24(%rsi), %rax, %r14, %r11, %r12
	adcq	$0, %r12
	movq	16(%rsi), %rdx			/* a2·a3: columns 5, 6 */
	mulxq	24(%rsi), %rax, %r13
	addq	%rax, %r12
	adcq	$0, %r13
	movq	0(%rsi), %rdx			/* double and add the squares */
	mulxq	%rdx, %rbx, %r14
	xorl	%eax, %eax
	adcxq	%r8, %r8
	adoxq	%r14, %r8
	movq	8(%rsi), %rdx
	mulxq	%rdx, %rax, %r14
	adcxq	%r9, %r9
	adoxq	%rax, %r9
	adcxq	%r10, %r10
	adoxq	%r14, %r10
	movq	16(%rsi), %rdx
	mulxq	%rdx, %rax, %r14
	adcxq	%r11, %r11
	adoxq	%rax, %r11
	adcxq	%r12, %r12
	adoxq	%r14, %r12
	movq	24(%rsi), %rdx
	mulxq	%rdx, %rax, %rbp
	adcxq	%r13, %r13
	adoxq	%rax, %r13
	movl	$0, %eax			/* MOV leaves the flags alone */
	adcxq	%rax, %rbp
	adoxq	%rax, %rbp
	/* T_hi = (r11 r12 r13 rbp) */
	xorl	%esi, %esi
	RED4S	%rbx, %r8, %r9, %r10, %rsi
	RED4S	%r8, %r9, %r10, %rsi, %rbx
	RED4S	%r9, %r10, %rsi, %rbx, %r8
	RED4S	%r10, %rsi, %rbx, %r8, %r9
	/* U = (rsi rbx r8 r9) <= p; U + T_hi < 2p */
	addq	%r11, %rsi
	adcq	%r12, %rbx
	adcq	%r13, %r8
	adcq	%rbp, %r9
	CSUB4	%r15, %rsi, %rbx, %r8, %r9, %r11, %r12, %r13, %rbp
	movq	%rsi, 0(%rdi)
	movq	%rbx, 8(%rdi)
	movq	%r8, 16(%rdi)
	movq	%r9, 24(%rdi)
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
