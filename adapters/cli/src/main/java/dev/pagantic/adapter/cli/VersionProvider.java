package dev.pagantic.adapter.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version of {@code --version}: the project version, written into {@code version.properties} at build time. */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {"pagantic " + properties.getProperty("version", "(unknown version)")};
    }
}
