package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.List;

/**
 * A tool-call format: how a family of chat templates teaches its model to call tools, which llama.cpp b4916's chat
 * layer ({@code common/chat.cpp}) recognises from the template's source ({@link ToolFormats#detect}). For each family
 * the engine builds the grammar of exactly that syntax, with each tool's arguments constrained by its schema, and
 * reads the output back into text, reasoning and tool calls.
 *
 * <h2>Free text, then a call</h2>
 * llama-server constrains a tool-calling answer lazily: free text until the model writes the format's opening
 * ({@code <tool_call>}, {@code [TOOL_CALLS]}, ...), then the call's grammar. java-llama.cpp 4.2.0 takes the lazy
 * grammar parameters only through its JSON, and they abort the JVM when a trigger completes inside a token that
 * carries more text than the grammar accepts (measured in a child JVM: llama.cpp's uncaught
 * {@code Unexpected empty grammar stack} error, SIGABRT). So the engine uses the equivalent that constrains from the
 * first token: free text that cannot contain an opening, and once an opening is written, the rest of the call
 * ({@link GbnfGrammar.Builder#textUntil}). The text stays free (llama.cpp checks a sampled token against the grammar
 * first, so free text costs little), calls stay schema-valid, and nothing can abort.
 */
interface ToolFormat {

    /** The format's name, as llama.cpp names it ({@code common_chat_format_name}). */
    String name();

    /**
     * The grammar of an answer: calls in this format, and, unless the request forces a call, text or an answer in
     * the form the format gives it.
     */
    GbnfGrammar grammar(ToolSpec spec);

    /**
     * Reads a complete output of a request with this spec.
     *
     * @throws dev.pagantic.core.PaganticException {@code INFERENCE_MALFORMED_RESPONSE} for a call that cannot be read
     */
    ToolReply parse(String output, ToolSpec spec, CallContext ctx);

    /**
     * Reads an output cut off by the token limit that {@link #parse} refused: a text answer cut short is still the
     * answer so far; a call cut short is {@code INFERENCE_MALFORMED_RESPONSE}. Only formats whose text answers have an
     * end of their own (the generic format's JSON string) can tell the difference.
     */
    default ToolReply cutOff(String output, PaganticException refused) {
        throw PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE, "the " + name()
                + " tool call was cut off at the token limit").detail("output", output).cause(refused).build();
    }

    /**
     * What of a partial output is certainly text (and reasoning) for the user: streamed as it grows. Each result
     * extends the previous one, and the last one is what {@link #parse} returns as content.
     */
    ToolReply partial(String output);

    /**
     * The conversation as the family's template expects it: unchanged for most, but some templates refuse what they
     * were not trained on, and a template's refusal ({@code raise_exception}) aborts the JVM inside java-llama.cpp
     * 4.2.0 (measured), so a format adapts what its template would refuse (Mistral Nemo's call ids, Llama 3's one call
     * per message) or renders calls and results itself (the generic format).
     */
    default List<Message> history(List<Message> messages) {
        return messages;
    }

    /** Whether the template is given the tools (it describes them in its own words). */
    default boolean templateDescribesTools() {
        return true;
    }

    /**
     * For a format whose template does not describe tools ({@link #templateDescribesTools()} false): the conversation
     * ({@link #history} included) with the format's own description of the tools and of the answers the grammar
     * admits.
     */
    default List<Message> describeTools(List<Message> messages, List<ToolDefinition> tools, ToolSpec spec) {
        return messages;
    }
}
