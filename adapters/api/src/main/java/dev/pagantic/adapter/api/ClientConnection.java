package dev.pagantic.adapter.api;

import io.javalin.http.Context;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the client of a request that waits in the queue is still connected.
 *
 * <p>Jetty does not watch a connection while its request is being handled and its body has been read: a client that
 * closes its end is only noticed at the next write, which a queued request has not made. So, as llama-server peeks at
 * its socket, this reads the connection without blocking: end of stream or a reset means the client is gone. The
 * body was read whole before the request was queued, so nothing else is there to read, unless the client pipelines
 * its next request on the same connection (which the HTTP clients of OpenAI SDKs never do); a byte read then is lost,
 * so the probe stops and the response closes the connection, which makes the client send that request again on a new
 * one.
 *
 * <p>Used by one thread, the one whose request waits.
 */
final class ClientConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    private final Context ctx;
    private final @Nullable EndPoint endPoint; // null: not a Jetty servlet request (then never gone)
    private boolean probing;

    ClientConnection(Context ctx) {
        this.ctx = ctx;
        EndPoint found = null;
        try {
            Request request = ServletContextRequest.getServletContextRequest(ctx.req());
            if (request != null) {
                found = request.getConnectionMetaData().getConnection().getEndPoint();
            }
        } catch (RuntimeException unavailable) {
            LOG.debug("the connection of {} {} cannot be watched: {}", ctx.method(), ctx.path(),
                    unavailable.toString());
        }
        this.endPoint = found;
        this.probing = found instanceof SocketChannelEndPoint;
    }

    /** True once the client has disconnected. */
    boolean gone() {
        if (endPoint == null) {
            return false;
        }
        if (!endPoint.isOpen() || endPoint.isInputShutdown()) {
            return true;
        }
        if (!probing) {
            return false;
        }
        try {
            SocketChannel channel = ((SocketChannelEndPoint) endPoint).getChannel();
            int read = channel.read(ByteBuffer.allocate(1));
            if (read > 0) {
                probing = false;
                ctx.res().setHeader("Connection", "close");
            }
            return read < 0;
        } catch (IOException reset) {
            return true;
        } catch (RuntimeException unreadable) {
            // a channel in blocking mode or closed under us: stop probing, treat the client as present
            LOG.debug("cannot probe the connection of {} {}: {}", ctx.method(), ctx.path(), unreadable.toString());
            probing = false;
            return false;
        }
    }
}
