package dev.pagantic.prompt;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Text with named placeholders, {@code {{name}}} (spaces inside the braces allowed: {@code {{ name }}}), rendered from
 * a map of values. Names start with a letter or underscore and continue with letters, digits, {@code _}, {@code .}
 * or {@code -}.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>The template is parsed once, when created: an unclosed <code>&#123;&#123;</code> or an invalid name is
 *       refused then with {@code CONFIG_INVALID} (details {@code index}).</li>
 *   <li>A placeholder with no value (absent, or mapped to null) fails rendering with {@code CONFIG_INVALID}, like Go's
 *       {@code missingkey=error}: the message names the variable(s), and details hold {@code variable} (the first
 *       missing name) and {@code missing} (all of them, in order). A missing value is a mistake of whoever assembles
 *       the prompt, never something to paper over with an empty string. Values for names the template does not use
 *       are ignored.</li>
 *   <li>Rendering is a single pass: values are inserted literally ({@link String#valueOf(Object)}) and never scanned
 *       again, so user text containing {@code {{something}}} stays exactly that in the output and cannot pull in
 *       another variable.</li>
 *   <li>To write a literal <code>&#123;&#123;</code> in the template itself, escape it as
 *       <code>\&#123;&#123;</code>; no other backslash is special.</li>
 * </ul>
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * Template greeting = Template.of("Hello {{name}}, you asked: {{question}}");
 * greeting.render(Map.of("name", "Ada", "question", "what is {{name}}?"));
 * // "Hello Ada, you asked: what is {{name}}?"
 * }</pre>
 */
public final class Template {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");

    /** A literal run of text, or a placeholder (name non-null). */
    private record Part(String literal, @Nullable String name) {
    }

    private final String source;
    private final List<Part> parts;
    private final Set<String> variables;

    private Template(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
        Set<String> names = new LinkedHashSet<>();
        for (Part part : parts) {
            if (part.name() != null) {
                names.add(part.name());
            }
        }
        this.variables = java.util.Collections.unmodifiableSet(names);
    }

    /**
     * Parses a template.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for an unclosed placeholder or an invalid name
     */
    public static Template of(String source) {
        Objects.requireNonNull(source, "source");
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("\\{{", i)) {
                literal.append("{{");
                i += 3;
            } else if (source.startsWith("{{", i)) {
                int close = source.indexOf("}}", i + 2);
                if (close < 0) {
                    throw invalid(source, i, "unclosed placeholder '{{' at index " + i);
                }
                String name = source.substring(i + 2, close).strip();
                if (!NAME.matcher(name).matches()) {
                    throw invalid(source, i, "invalid placeholder name '" + name + "' at index " + i
                            + " (write \\{{ for a literal '{{')");
                }
                if (literal.length() > 0) {
                    parts.add(new Part(literal.toString(), null));
                    literal.setLength(0);
                }
                parts.add(new Part("", name));
                i = close + 2;
            } else {
                literal.append(source.charAt(i));
                i++;
            }
        }
        if (literal.length() > 0) {
            parts.add(new Part(literal.toString(), null));
        }
        return new Template(source, parts);
    }

    /**
     * Escapes text so that, pasted into a template's <em>source</em>, it renders as itself: every
     * <code>&#123;&#123;</code> becomes <code>\&#123;&#123;</code>. Not needed for values passed to
     * {@link #render(Map)}, which are never expanded.
     */
    public static String escape(String text) {
        return text.replace("{{", "\\{{");
    }

    /** The template's source text, as given. */
    public String source() {
        return source;
    }

    /** The names of the placeholders, in order of first appearance. */
    public Set<String> variables() {
        return variables;
    }

    /**
     * Renders the template, inserting each value literally.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the missing variable(s) when a placeholder has no value
     */
    public String render(Map<String, ?> values) {
        Objects.requireNonNull(values, "values");
        List<String> missing = new ArrayList<>();
        for (String name : variables) {
            if (values.get(name) == null) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            String names = missing.size() == 1 ? "variable '" + missing.get(0) + "' is"
                    : "variables " + missing.stream().map(n -> "'" + n + "'").toList() + " are";
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "template " + names + " missing")
                    .detail("variable", missing.get(0))
                    .detail("missing", List.copyOf(missing))
                    .build();
        }
        StringBuilder out = new StringBuilder(source.length() + 64);
        for (Part part : parts) {
            out.append(part.name() == null ? part.literal() : String.valueOf(values.get(part.name())));
        }
        return out.toString();
    }

    /** Renders a template without placeholders (or throws {@code CONFIG_INVALID} naming the first one). */
    public String render() {
        return render(Map.of());
    }

    private static PaganticException invalid(String source, int index, String message) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid template: " + message)
                .detail("index", index)
                .detail("template", source.length() <= 200 ? source : source.substring(0, 200) + "...")
                .build();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Template that && source.equals(that.source);
    }

    @Override
    public int hashCode() {
        return source.hashCode();
    }

    @Override
    public String toString() {
        return "Template[" + source + "]";
    }
}
