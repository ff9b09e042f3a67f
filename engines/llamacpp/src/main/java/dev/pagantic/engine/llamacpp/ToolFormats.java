package dev.pagantic.engine.llamacpp;

/**
 * Recognises a template's tool-call format the way llama.cpp b4916 does ({@code common_chat_templates_apply_jinja}):
 * by strings in the template's source, checked in llama.cpp's order, with the generic format for a template that
 * teaches none.
 *
 * <table>
 *   <caption>Detection</caption>
 *   <tr><th>the template contains</th><th>format</th></tr>
 *   <tr><td>{@code <｜tool▁calls▁begin｜>}</td><td>DeepSeek R1</td></tr>
 *   <tr><td>{@code <|END_THINKING|><|START_ACTION|>}</td><td>Command R7B</td></tr>
 *   <tr><td>{@code <tool_call>}</td><td>Hermes 2 Pro (Qwen 2.5, Hermes 2/3, QwQ)</td></tr>
 *   <tr><td>{@code >>>all}</td><td>Functionary v3.2</td></tr>
 *   <tr><td>{@code  functools[}</td><td>FireFunction v2</td></tr>
 *   <tr><td>{@code <|start_header_id|>} and {@code <function=}</td><td>Functionary v3.1 Llama 3.1</td></tr>
 *   <tr><td>{@code <|start_header_id|>ipython<|end_header_id|>}</td><td>Llama 3.x (with built-in tools when it also
 *       contains {@code <|python_tag|>})</td></tr>
 *   <tr><td>{@code [TOOL_CALLS]}</td><td>Mistral Nemo</td></tr>
 *   <tr><td>none of these</td><td>Generic</td></tr>
 * </table>
 */
final class ToolFormats {

    private ToolFormats() {
    }

    /** The format the template teaches. */
    static ToolFormat detect(String template) {
        if (template.contains(DeepSeekR1Format.OPEN)) {
            return new DeepSeekR1Format();
        }
        if (template.contains("<|END_THINKING|><|START_ACTION|>")) {
            return new CommandR7bFormat();
        }
        if (template.contains(HermesFormat.OPEN)) {
            return new HermesFormat();
        }
        if (template.contains(">>>all")) {
            return new FunctionaryV32Format();
        }
        if (template.contains(FireFunctionFormat.OPEN)) {
            return new FireFunctionFormat();
        }
        if (template.contains("<|start_header_id|>") && template.contains(FunctionaryV31Format.OPEN)) {
            return new FunctionaryV31Format();
        }
        if (template.contains("<|start_header_id|>ipython<|end_header_id|>")) {
            return new Llama3xFormat(template.contains(Llama3xFormat.PYTHON_TAG));
        }
        if (template.contains(MistralNemoFormat.OPEN)) {
            return new MistralNemoFormat();
        }
        return new GenericFormat();
    }
}
