package dev.pagantic.engine.openai;

import dev.pagantic.inference.Capability;
import java.util.EnumSet;
import java.util.Set;

/**
 * How the server constrains output, chosen to match what it actually honours: a server that ignores a field generates
 * unconstrained text, so the engine declares (and sends) only what the chosen mode says the server enforces, and
 * refuses the rest with {@code CONFIG_UNSUPPORTED_CAPABILITY}.
 */
public enum ConstraintMode {

    /**
     * The server honours llama.cpp-server's {@code grammar} field (GBNF) and OpenAI's {@code response_format}
     * {@code json_schema}: declares {@link Capability#GRAMMAR} and {@link Capability#SCHEMA}. When a request carries
     * both a grammar and a schema, only the grammar is sent (llama-server refuses both at once).
     */
    GRAMMAR(EnumSet.of(Capability.GRAMMAR, Capability.SCHEMA)),

    /**
     * The server honours {@code response_format} {@code json_schema} (OpenAI, vLLM, Ollama, llama-server) but not
     * grammars: declares {@link Capability#SCHEMA}; requests with a grammar are refused.
     */
    JSON_SCHEMA(EnumSet.of(Capability.SCHEMA)),

    /**
     * The server enforces nothing: neither grammar nor schema is declared, so requests with either are refused and
     * orchestration falls back to prompting, repair and validation.
     */
    PROMPT_ONLY(EnumSet.noneOf(Capability.class));

    private final Set<Capability> capabilities;

    ConstraintMode(Set<Capability> capabilities) {
        this.capabilities = Set.copyOf(capabilities);
    }

    /** The constraint capabilities this mode declares (a subset of GRAMMAR and SCHEMA). */
    public Set<Capability> capabilities() {
        return capabilities;
    }
}
