package dev.pagantic.prompt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text that comes from a model (or a user, or a retrieved document) and looks like template syntax is inserted into
 * prompts literally: rendering is one pass, values are never parsed as templates, and a rendered prompt used as a
 * value of another template is not expanded again.
 */
class TemplateInjectionTest {

    @ParameterizedTest
    @ValueSource(strings = {"{{system}}", "{{ secret }}", "{{", "}}", "{{}}", "\\{{secret}}", "${secret}",
            "#{secret}", "{{secret}}{{secret}}", "{{{secret}}}", "{{secret.key}}", "<%= secret %>"})
    void aValueThatLooksLikeAPlaceholderIsInsertedVerbatim(String modelOutput) {
        Template template = Template.of("Previous answer: {{answer}}");

        String rendered = template.render(Map.of("answer", modelOutput, "secret", "TOP-SECRET", "system", "SYS"));

        assertThat(rendered).isEqualTo("Previous answer: " + modelOutput).doesNotContain("TOP-SECRET");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{secret}}", "{{ answer }}", "${secret}"})
    void chainedRenderingSubstitutesOnceNotRecursively(String modelOutput) {
        Template first = Template.of("Step one said: {{answer}}");
        Template second = Template.of("Summarise: {{previous}} (secret: {{secret}})");

        String once = first.render(Map.of("answer", modelOutput));
        String twice = second.render(Map.of("previous", once, "secret", "S", "answer", "LOOP"));

        assertThat(twice).isEqualTo("Summarise: Step one said: " + modelOutput + " (secret: S)")
                .doesNotContain("LOOP");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{product}}", "${product}", "\\{{product}}"})
    void contextSnippetsAndBaseValuesInASystemPromptAreNotExpanded(String injected) {
        SystemPrompt prompt = SystemPrompt.builder()
                .base(Template.of("You are {{product}}'s assistant. User name: {{user}}."),
                        Map.of("product", "Acme", "user", injected))
                .context(List.of(ContextSnippet.of("Retrieved: " + injected)))
                .build();

        String text = prompt.render();

        assertThat(text).startsWith("You are Acme's assistant. User name: " + injected + ".")
                .contains("Retrieved: " + injected);
        assertThat(prompt.buildSystemPrompt()).isEqualTo(Message.system(text));
    }
}
