/**
 * Layer 00, the shared vocabulary of pagantic. Every other module speaks these types; this package depends on
 * nothing but the JDK.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li><b>Conversation.</b> A {@link dev.pagantic.core.Message} has a {@link dev.pagantic.core.Role} (system, user,
 *       assistant, tool), and which fields it carries depends on the role: system and user messages carry content
 *       only, assistant messages carry content and/or {@link dev.pagantic.core.ToolCall}s, tool messages carry the
 *       content, the id of the call they answer and the tool's name. The record's constructor enforces this, so an
 *       ill-formed message cannot exist.</li>
 *   <li><b>Tools.</b> A {@link dev.pagantic.core.ToolDefinition} is a tool as the model sees it (name, description,
 *       an object {@link dev.pagantic.core.Schema} for the arguments); a {@link dev.pagantic.core.ToolCall} is the
 *       model asking to run one; a {@link dev.pagantic.core.ToolResult} is what came back, including failures, which
 *       are fed back to the model so that it can try again.</li>
 *   <li><b>Schema.</b> {@link dev.pagantic.core.Schema} is a JSON Schema (draft 2020-12) for structured output and
 *       tool parameters. Its representation is the decision that shapes the rest: the schema <em>is</em> its JSON
 *       Schema document, checked and deeply frozen, every keyword and annotation as given. That document is the
 *       single source of truth: the validator (layer 05) compiles it, engines that send schemas on pass it, and the
 *       grammar generator (layer 01) reads a typed view of it (the schemas applying at one place merged, one rule
 *       per JSON type) built when a grammar is derived. So no keyword can be lost between a typed model and the
 *       document, and validation sees exactly what the caller wrote. The reader refuses what pagantic cannot
 *       honour (an unknown keyword, {@code $anchor} and dynamic references, remote references, formats it cannot
 *       check exactly, a malformed value, a reference that does not resolve) with {@code CONFIG_INVALID} naming the
 *       keyword and its JSON pointer. The hash is computed once, so schemas key caches (compiled validators) at no
 *       cost per request. Objects built in code are closed ({@code additionalProperties: false}) and keep their
 *       properties in declaration order, the order grammars write keys in. {@code docs/json-schema.md} lists which
 *       keyword is enforced in the grammar and which is validated after.</li>
 *   <li><b>Usage.</b> {@link dev.pagantic.core.TokenUsage} carries token counts and generation time. Usage values
 *       combine with {@code plus}; because the generation time is carried rather than a rate, combining is
 *       associative and commutative, so the usage of N calls does not depend on how they were added up.</li>
 *   <li><b>Failure taxonomy.</b> Every failure is a {@link dev.pagantic.core.PaganticException} carrying the
 *       specification's {@code SystemError} fields: a stable {@link dev.pagantic.core.ErrorCode}, its
 *       {@link dev.pagantic.core.FailureCategory} (one of seven), a retryable flag (the code's default unless the
 *       emitter knows better), a message, structured details and an optional cause. Callers switch on the code or
 *       category, never on the message. {@code docs/errors.md} lists every code.</li>
 *   <li><b>Call context.</b> {@link dev.pagantic.core.CallContext} is the Java counterpart of Go's
 *       {@code context.Context}: an immutable value passed first to every call, carrying the
 *       {@link dev.pagantic.core.Correlation} ids (request, session, trace, span, parent span, caused-by), an
 *       optional deadline, the {@link dev.pagantic.core.Cancellation}s that can stop the work, and the clock and
 *       {@link dev.pagantic.core.IdGenerator} that make deadlines and ids deterministic in tests. Child contexts are
 *       derived ({@code withTimeout}, {@code withCancellation}, {@code childSpan}), never mutated.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li>Values are records validated in their constructors; absent strings are empty, never null; collections are
 *       immutable copies (JSON-like values such as tool arguments are deep-copied).</li>
 *   <li>Invalid values fail with {@code CONFIG_INVALID} rather than a bare {@code IllegalArgumentException}, so that
 *       every failure a caller sees has a code.</li>
 *   <li>Cancellation is cooperative: long-running code calls {@code CallContext.throwIfDone()} between units of work
 *       (steps, tool calls, tokens), which throws {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}. Only the
 *       code that started the work holds the {@code Cancellation}; a callee cannot cancel its caller.</li>
 *   <li>No mutable static state: the clock and the id generator live in the context, not in globals.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.core;

import org.jspecify.annotations.NullMarked;
