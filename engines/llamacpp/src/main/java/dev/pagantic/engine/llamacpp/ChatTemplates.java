package dev.pagantic.engine.llamacpp;

import java.util.Optional;

/**
 * A model's chat templates, from its GGUF metadata, and the one llama.cpp b4916 renders a request with
 * ({@code common_chat_templates_init}): the {@code tool_use} variant when tools are offered and the model has one
 * (Hermes 2 Pro does), otherwise the default; without a default (or with the literal {@code chatml}), the
 * {@code tool_use} one or llama.cpp's built-in ChatML template.
 *
 * @param main    {@code tokenizer.chat_template}, if any
 * @param toolUse {@code tokenizer.chat_template.tool_use}, if any
 */
record ChatTemplates(Optional<String> main, Optional<String> toolUse) {

    /** llama.cpp's fallback template (CHATML_TEMPLATE_SRC in common/chat.cpp), which teaches no tool calls. */
    static final String CHATML = """
            {%- for message in messages -%}
              {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}
            {%- endfor -%}
            {%- if add_generation_prompt -%}
              {{- '<|im_start|>assistant\\n' -}}
            {%- endif -%}""";

    static ChatTemplates of(GgufMetadata metadata) {
        return new ChatTemplates(metadata.string(GgufMetadata.CHAT_TEMPLATE).filter(t -> !t.isEmpty()),
                metadata.string(GgufMetadata.TOOL_USE_TEMPLATE).filter(t -> !t.isEmpty()));
    }

    /** The source of the template a request is rendered with. */
    String source(boolean withTools) {
        if (withTools && toolUse.isPresent()) {
            return toolUse.get();
        }
        return main.filter(template -> !template.equals("chatml")).or(() -> toolUse).orElse(CHATML);
    }
}
