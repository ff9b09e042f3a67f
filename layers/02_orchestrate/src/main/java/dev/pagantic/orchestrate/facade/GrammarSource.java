package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the GBNF grammar of an {@link OutputContract} comes from: given inline, or read from a file. Seed 001 has a
 * grammar string; the facade also accepts a file, which is read at INIT/PREPARE, so a missing file is
 * {@code CONFIG_GRAMMAR_NOT_FOUND} and a grammar that does not parse is a configuration error
 * ({@code CONFIG_GRAMMAR_INVALID}, checked by the facade with the inference layer's grammar parser). This type only
 * holds the source and reads it; it does not parse.
 */
public sealed interface GrammarSource permits GrammarSource.Inline, GrammarSource.File {

    /** A grammar given as text. */
    static GrammarSource inline(String text) {
        return new Inline(text);
    }

    /** A grammar read from a file (UTF-8) when the request is prepared. */
    static GrammarSource file(Path path) {
        return new File(path);
    }

    /**
     * The grammar text: the inline text, or the file's content.
     *
     * @throws PaganticException {@code CONFIG_GRAMMAR_NOT_FOUND} when the file is missing or cannot be read
     */
    String load();

    /**
     * A grammar given inline.
     *
     * @param text the GBNF text; not blank
     */
    record Inline(String text) implements GrammarSource {
        public Inline {
            requireText(text, "grammar");
        }

        @Override
        public String load() {
            return text;
        }
    }

    /**
     * A grammar in a file.
     *
     * @param path the file holding the GBNF text (UTF-8)
     */
    record File(Path path) implements GrammarSource {
        public File {
            requireNonNull(path, "grammar path");
        }

        @Override
        public String load() {
            try {
                return Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException | SecurityException unreadable) {
                throw PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_NOT_FOUND,
                                "grammar file not found or unreadable: " + path)
                        .detail("path", path.toString()).cause(unreadable).build();
            }
        }
    }
}
