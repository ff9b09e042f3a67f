package dev.pagantic.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {

    @Test
    void rendersNamedPlaceholders() {
        Template template = Template.of("Hello {{name}}, welcome to {{ place }}. Bye {{name}}!");
        assertThat(template.variables()).containsExactly("name", "place");
        assertThat(template.render(Map.of("name", "Ada", "place", "Lisbon", "unused", 1)))
                .isEqualTo("Hello Ada, welcome to Lisbon. Bye Ada!");
    }

    @Test
    void missingVariableErrorNamesTheVariable() {
        Template template = Template.of("Dear {{customer}}, your order {{order_id}} shipped.");

        assertThatThrownBy(() -> template.render(Map.of("customer", "Ada")))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getMessage()).contains("variable 'order_id' is missing");
                    assertThat(e.details()).containsEntry("variable", "order_id")
                            .containsEntry("missing", List.of("order_id"));
                });
        assertThatThrownBy(() -> template.render(Map.of()))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.getMessage()).contains("'customer'").contains("'order_id'");
                    assertThat(e.details()).containsEntry("missing", List.of("customer", "order_id"));
                });
    }

    @Test
    void aNullValueCountsAsMissing() {
        Map<String, Object> values = new HashMap<>();
        values.put("name", null);
        assertThatThrownBy(() -> Template.of("{{name}}").render(values))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.details()).containsEntry("variable", "name"));
    }

    @Test
    void userTextContainingPlaceholderSyntaxIsRenderedLiterally() {
        Template template = Template.of("System: you serve {{tenant}}. User said: {{input}}");
        String hostile = "{{tenant}} {{secret}} \\{{input}} }} {{";

        String rendered = template.render(Map.of("tenant", "Acme", "input", hostile, "secret", "s3cr3t"));

        assertThat(rendered).isEqualTo("System: you serve Acme. User said: " + hostile);
        assertThat(rendered).doesNotContain("s3cr3t");
    }

    @Test
    void backslashEscapesALiteralOpeningInTheTemplate() {
        assertThat(Template.of("literal \\{{name}} and {{name}}").render(Map.of("name", "x")))
                .isEqualTo("literal {{name}} and x");
        assertThat(Template.of("a \\ b").render()).isEqualTo("a \\ b");
    }

    @Test
    void escapeMakesTextSafeToPasteIntoATemplateSource() {
        String user = "use {{weird}} and \\{{odd}} {{{triple}}}";
        assertThat(Template.of("Q: " + Template.escape(user)).render()).isEqualTo("Q: " + user);
    }

    @Test
    void malformedTemplatesAreRefusedWhenParsed() {
        for (String bad : List.of("unclosed {{name", "empty {{}}", "space {{first name}}", "digit {{1st}}")) {
            assertThatThrownBy(() -> Template.of(bad)).as(bad)
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                        assertThat(e.details()).containsKey("index");
                    });
        }
    }

    @Test
    void templatesWithoutPlaceholdersRenderAsIs() {
        Template plain = Template.of("no placeholders } here {");
        assertThat(plain.variables()).isEmpty();
        assertThat(plain.render()).isEqualTo("no placeholders } here {");
        assertThat(plain).isEqualTo(Template.of("no placeholders } here {"));
    }
}
