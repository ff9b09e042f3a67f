package dev.pagantic.adapter.mcp.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** pagantic's version, announced as the client's and the server's implementation version. */
public final class McpVersion {

    private McpVersion() {
    }

    /** The project version written into {@code version.properties} at build time; "unknown" without it. */
    public static String get() {
        Properties properties = new Properties();
        try (InputStream in = McpVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException unreadable) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }
}
