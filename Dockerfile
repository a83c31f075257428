# georesolver as a container image: built with Maven (the jar targets Java 17), run as a non-root
# user on the JRE of the JRE build argument (default 17: G1 on JDK 17 had the lowest p99 and RSS in
# the JVM matrix of docs/benchmarks.md; --build-arg JRE=25 for its generational ZGC). The collector
# comes from scripts/jvm.sh's table, like scripts/run.sh.
#   docker build -t georesolver .     (docker-compose.yml builds it for the local stack)
#   docker run -p 8080:8080 georesolver
# Arguments after the image name replace the default command (the resolver's flags, e.g.
# --manifest /app/conf/stack/manifest.yaml --redis redis://redis:6379 --log-format json).

# FROM lines may use only ARGs declared before the first FROM.
ARG JRE=17
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# Dependencies first, in a layer of their own: rebuilt only when the pom changes.
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src ./src
RUN mvn -B -q -DskipTests package

FROM eclipse-temurin:${JRE}-jre
# curl for the health check only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system georesolver \
 && useradd --system --gid georesolver --home-dir /app --no-create-home --shell /usr/sbin/nologin georesolver
WORKDIR /app
COPY --from=build /src/target/georesolver.jar /app/georesolver.jar
COPY conf /app/conf
COPY scripts/jvm.sh /app/jvm.sh
USER georesolver:georesolver
EXPOSE 8080
# Liveness only: readiness (/health/ready) goes down while every rung is unusable, which is the
# ladder's business, not a reason to restart the container.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/health/live || exit 1
# A JVM out of memory exits (and is restarted) instead of limping on; the heap follows the
# container's memory limit; jvm.sh adds the collector flags of the JRE it finds and says which.
ENTRYPOINT ["/app/jvm.sh", "exec", "-XX:+ExitOnOutOfMemoryError", "-XX:MaxRAMPercentage=75", "-jar", "/app/georesolver.jar"]
CMD ["--manifest", "/app/conf/manifest.yaml", "--port", "8080"]
