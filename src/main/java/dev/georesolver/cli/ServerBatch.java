package dev.georesolver.cli;

import dev.georesolver.batch.OutputFormat;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * {@code batch --server URL}: the whole file to the server's batch API instead of a request per row.
 * The file is streamed to {@code POST /v1/batches} (the server answers the job it already has for the
 * same content, so running the same command again — {@code --resume} or not — follows the same job
 * instead of starting another), {@code GET /v1/batches/{id}} is polled for the progress bar, and the
 * results are streamed from {@code GET /v1/batches/{id}/results?format=…} to a temporary file beside
 * the output, moved into place once complete. Ctrl-C stops following; the job goes on on the server.
 * Runs on the command's thread (blocking HTTP); the key goes as {@code Authorization: Bearer} and is
 * never printed.
 */
final class ServerBatch {

  /** How often the job is polled, milliseconds. */
  static final long POLL_MS = 500;

  /**
   * How a run ended.
   *
   * @param job the job's last view
   * @param complete whether the results were written
   */
  record Outcome(JsonObject job, boolean complete) {}

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String base;
  private final String key;
  private volatile boolean interrupted;

  ServerBatch(String url, String key) throws CliException {
    this.base = HttpResolver.baseUrl(url);
    this.key = key == null || key.isBlank() ? null : key;
  }

  /** Stops following (Ctrl-C). */
  void interrupt() {
    interrupted = true;
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("User-Agent", "georesolver-cli");
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    return b;
  }

  /** Submits, follows, downloads. */
  Outcome run(Path input, Path output, OutputFormat format, String intent, Progress progress) throws CliException {
    JsonObject job = submit(input, intent);
    String id = job.getString("id");
    progress.note("job " + id + " on " + base + " (" + job.getString("state") + ")");
    long doneAtStart = job.getLong("done", 0L);
    while (!finished(job)) {
      if (interrupted) {
        return new Outcome(job, false);
      }
      progress.update(counts(job, doneAtStart));
      sleep();
      job = get("/v1/batches/" + id);
    }
    progress.update(counts(job, doneAtStart));
    download(id, output, format);
    return new Outcome(job, true);
  }

  private static boolean finished(JsonObject job) {
    String s = job.getString("state");
    return "done".equals(s) || "cancelled".equals(s) || "failed".equals(s);
  }

  private static Progress.Counts counts(JsonObject j, long doneAtStart) {
    long done = j.getLong("done", 0L);
    long resolved = j.getLong("resolved", 0L);
    return new Progress.Counts(j.getLong("total", 0L), done, resolved, done - resolved, Math.min(done, doneAtStart));
  }

  private JsonObject submit(Path input, String intent) throws CliException {
    String path = "/v1/batches" + (intent == null ? "" : "?intent=" + URLEncoder.encode(intent, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> r = http.send(request(path).POST(HttpRequest.BodyPublishers.ofFile(input)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200 || r.statusCode() == 201) {
        return new JsonObject(r.body());
      }
      throw refused(r, "submitting " + input);
    } catch (IOException e) {
      throw new CliException(Exit.UNAVAILABLE, "cannot reach " + base + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(Exit.INTERRUPTED, "interrupted");
    }
  }

  private JsonObject get(String path) throws CliException {
    for (int tries = 0; ; tries++) {
      try {
        HttpResponse<String> r = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return new JsonObject(r.body());
        }
        if (r.statusCode() < 500 || tries >= 5) {
          throw refused(r, "following the job");
        }
      } catch (IOException e) {
        if (tries >= 5) {
          throw new CliException(Exit.UNAVAILABLE, "cannot reach " + base + ": " + e.getMessage());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(Exit.INTERRUPTED, "interrupted");
      }
      sleep();
    }
  }

  private void download(String id, Path output, OutputFormat format) throws CliException {
    Path dir = output.toAbsolutePath().getParent();
    try {
      Path part = Files.createTempFile(dir, output.getFileName().toString(), ".part");
      try {
        HttpResponse<Path> r = http.send(request("/v1/batches/" + id + "/results?format=" + format.label()).GET().build(),
            HttpResponse.BodyHandlers.ofFile(part));
        if (r.statusCode() != 200) {
          throw new CliException(Exit.UNAVAILABLE, "downloading the results: HTTP " + r.statusCode());
        }
        Files.move(part, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(part);
      }
    } catch (IOException e) {
      throw new CliException(Exit.UNAVAILABLE, "downloading the results to " + output + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(Exit.INTERRUPTED, "interrupted");
    }
  }

  /** A refusal, its problem's detail quoted safely. */
  private static CliException refused(HttpResponse<String> r, String what) {
    String detail;
    try {
      JsonObject p = new JsonObject(r.body());
      detail = p.getString("detail", p.getString("title", ""));
    } catch (DecodeException | NullPointerException e) {
      detail = "";
    }
    int status = r.statusCode();
    int exit = status == 400 || status == 413 || status == 401 || status == 403 ? Exit.USAGE : Exit.UNAVAILABLE;
    return new CliException(exit, what + ": HTTP " + status + (detail.isEmpty() ? "" : ": " + Terminal.safe(detail, 300)));
  }

  private void sleep() throws CliException {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(Exit.INTERRUPTED, "interrupted");
    }
  }
}
