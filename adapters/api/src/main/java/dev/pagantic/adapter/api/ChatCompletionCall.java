package dev.pagantic.adapter.api;

import dev.pagantic.orchestrate.facade.SystemRequest;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An OpenAI chat completion request as the adapter runs it: the facade's request plus what only the HTTP exchange
 * needs.
 *
 * @param request      the facade request (its request id already assigned)
 * @param model        the model the client named, echoed in the response; empty when it named none
 * @param stream       whether the client asked for server-sent events
 * @param includeUsage whether a streamed response ends with a usage chunk ({@code stream_options.include_usage})
 * @param structured   whether {@code response_format} asked for a JSON schema, so that the content is the validated
 *                     JSON rather than the model's raw text
 * @param choices      how many choices to generate ({@code n}), each a run of the request of its own
 * @param seed         the client's {@code seed}, from which choice i runs with seed + i; empty when it sent none
 */
record ChatCompletionCall(SystemRequest request, String model, boolean stream, boolean includeUsage,
                          boolean structured, int choices, OptionalLong seed) {

    ChatCompletionCall {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(seed, "seed");
        if (choices < 1) {
            throw new IllegalArgumentException("choices must be positive: " + choices);
        }
    }
}
