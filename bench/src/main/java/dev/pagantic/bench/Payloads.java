package dev.pagantic.bench;

import dev.pagantic.core.Schema;

/** The JSON outputs and schema the structured-output benchmarks process. */
final class Payloads {

    /** An object holding a list of items with an enum field: exercises repair, enum normalisation and validation. */
    static final Schema SCHEMA = Schema.object()
            .required("title", Schema.string())
            .required("items", Schema.arrayOf(Schema.object()
                    .required("id", Schema.integer())
                    .required("name", Schema.string())
                    .required("status", Schema.enumOf("active", "inactive", "pending"))
                    .build()))
            .build();

    private static final String[] STATUS = {"Active", "inactive", "PENDING"};

    private Payloads() {
    }

    /**
     * A model-like output of about {@code size} characters that needs work: wrapped in a Markdown fence, a trailing
     * comma after the last item, and enum values in the wrong case.
     */
    static String messyJson(int size) {
        StringBuilder json = new StringBuilder(size + 100).append("```json\n{\"title\": \"inventory\", \"items\": [");
        int id = 0;
        while (json.length() < size - 80) {
            if (id > 0) {
                json.append(", ");
            }
            json.append("{\"id\": ").append(id).append(", \"name\": \"item number ").append(id)
                    .append("\", \"status\": \"").append(STATUS[id % STATUS.length]).append("\"}");
            id++;
        }
        return json.append(",]}\n```").toString();
    }

    /** The same object, already valid: what a grammar-constrained model writes. */
    static String cleanJson(int size) {
        StringBuilder json = new StringBuilder(size + 100).append("{\"title\":\"inventory\",\"items\":[");
        int id = 0;
        while (json.length() < size - 60) {
            if (id > 0) {
                json.append(',');
            }
            json.append("{\"id\":").append(id).append(",\"name\":\"item number ").append(id)
                    .append("\",\"status\":\"").append(STATUS[id % STATUS.length].toLowerCase(java.util.Locale.ROOT))
                    .append("\"}");
            id++;
        }
        return json.append("]}").toString();
    }
}
