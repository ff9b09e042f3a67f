package dev.pagantic.adapter.api;

import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;

/** Which error document an endpoint answers with: the OpenAI endpoints OpenAI's, the native ones the facade's. */
enum Dialect {

    /** {@code {"error": {"message", "type", "param", "code", "pagantic_code"}}} ({@link OpenAiError}). */
    OPENAI {
        @Override
        String document(SystemError error) {
            return OpenAiError.of(error);
        }

        @Override
        String document(ApiFailure failure) {
            return OpenAiError.of(failure);
        }
    },

    /** {@link FacadeJson}'s response document with its error object. */
    NATIVE {
        @Override
        String document(SystemError error) {
            return FacadeJson.toJson(SystemResponse.failure(SystemRequest.builder().build(), error));
        }

        @Override
        String document(ApiFailure failure) {
            return document(SystemError.of(failure.code(), failure.getMessage()));
        }
    };

    /** The body answering a request the facade failed. */
    abstract String document(SystemError error);

    /** The body answering a request the adapter refused. */
    abstract String document(ApiFailure failure);
}
