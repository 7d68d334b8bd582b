package dev.wastecheck.traces.generate;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a dump in the layout mysqldump (MySQL 8, default options) prints: header comments,
 * {@code /*!40101 ... *&#47;} session settings, per table {@code DROP TABLE IF EXISTS}, {@code CREATE
 * TABLE}, {@code LOCK TABLES}, extended INSERTs no longer than {@code net_buffer_length} bytes,
 * {@code UNLOCK TABLES}, and the closing settings.
 */
final class MysqlDumpWriter implements Closeable {
    private final OutputStream out;
    private final int maxStatementBytes;
    private long bytes;
    private String table;
    private boolean insertOpen;
    private long statementBytes;
    private long rows;

    MysqlDumpWriter(Path file, int maxStatementBytes) throws IOException {
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        this.maxStatementBytes = maxStatementBytes;
    }

    long bytesWritten() {
        return bytes;
    }

    void header(String generatedBy) throws IOException {
        text("""
                -- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
                --
                -- Host: localhost    Database: wikidb
                -- ------------------------------------------------------
                -- Server version\t8.0.36
                -- %s

                /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
                /*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
                /*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
                /*!50503 SET NAMES utf8mb4 */;
                /*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
                /*!40103 SET TIME_ZONE='+00:00' */;
                /*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
                /*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
                /*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
                /*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
                """.formatted(generatedBy));
    }

    void beginTable(String name, String createTable) throws IOException {
        table = name;
        rows = 0;
        text("""

                --
                -- Table structure for table `%1$s`
                --

                DROP TABLE IF EXISTS `%1$s`;
                /*!40101 SET @saved_cs_client     = @@character_set_client */;
                /*!50503 SET character_set_client = utf8mb4 */;
                %2$s;
                /*!40101 SET character_set_client = @saved_cs_client */;

                --
                -- Dumping data for table `%1$s`
                --

                LOCK TABLES `%1$s` WRITE;
                /*!40000 ALTER TABLE `%1$s` DISABLE KEYS */;
                """.formatted(name, createTable));
    }

    void row(SqlRow row) throws IOException {
        if (insertOpen && statementBytes + 1 + row.len + 2 > maxStatementBytes) {
            text(";\n");
            insertOpen = false;
        }
        if (!insertOpen) {
            String head = "INSERT INTO `" + table + "` VALUES ";
            text(head);
            statementBytes = head.length();
            insertOpen = true;
        } else {
            out.write(',');
            bytes++;
            statementBytes++;
        }
        out.write(row.buf, 0, row.len);
        bytes += row.len;
        statementBytes += row.len;
        rows++;
    }

    long endTable() throws IOException {
        if (insertOpen) {
            text(";\n");
            insertOpen = false;
        }
        text("/*!40000 ALTER TABLE `" + table + "` ENABLE KEYS */;\nUNLOCK TABLES;\n");
        return rows;
    }

    void footer(String completedOn) throws IOException {
        text("""
                /*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

                /*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
                /*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
                /*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
                /*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
                /*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
                /*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
                /*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

                -- Dump completed on %s
                """.formatted(completedOn));
    }

    private void text(String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b);
        bytes += b.length;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
