@echo off
rem Runs the wastecheck command line on Windows, as ./wastecheck does elsewhere: builds it first when
rem cli\target\wastecheck.jar is missing (delete the jar to rebuild after changing the sources), then
rem runs it with the JVM flags its Java version needs. Needs only a JDK 17 or newer.
setlocal EnableExtensions
set "HERE=%~dp0"
set "JAR=%HERE%cli\target\wastecheck.jar"

if not exist "%JAR%" (
  echo wastecheck: building ^(first run^)... 1>&2
  pushd "%HERE%"
  call mvnw.cmd -q -B -DskipTests -Dasciidoctor.skip=true -pl cli -am install 1>&2
  popd
  if exist "%HERE%cli\target\wastecheck.jsa" del "%HERE%cli\target\wastecheck.jsa"
)
if not exist "%JAR%" (
  echo wastecheck: the build failed; run mvnw.cmd -pl cli -am install to see why 1>&2
  exit /b 1
)

if defined JAVA_HOME (set "JAVA=%JAVA_HOME%\bin\java.exe") else (set "JAVA=java")

rem "openjdk full version "17.0.15+6"" -> 17 (a JDK 8 would say 1.8.0_...: 1, below every check)
set "JV="
for /f tokens^=2^ delims^=^" %%v in ('""%JAVA%" -fullversion 2^>^&1"') do if not defined JV set "JV=%%v"
set "MAJOR=17"
for /f "delims=.-+_" %%m in ("%JV%") do set "MAJOR=%%m"

rem Arrow needs java.nio opened on every JDK; JDK 22+ asks before native access (DuckDB); on JDK 24+
rem arrow-memory-netty reads memory through sun.misc.Unsafe, which JDK 17 would reject as a flag.
set "FLAGS=--add-opens=java.base/java.nio=ALL-UNNAMED"
if %MAJOR% GEQ 22 set "FLAGS=%FLAGS% --enable-native-access=ALL-UNNAMED"
if %MAJOR% GEQ 24 set "FLAGS=%FLAGS% --sun-misc-unsafe-memory-access=allow"

rem AppCDS, as ./wastecheck does: the classes a start loads, recorded once by a run on the example dump
rem (again after the build above; the JVM itself ignores an archive of another jar or Java, silently).
rem The dynamic archive only: ./wastecheck's static one (it keeps picocli's classes) is not done here.
set "JSA=%HERE%cli\target\wastecheck.jsa"
set "QUIET=-Xlog:cds=off -Xlog:cds+dynamic=off -Xlog:class+path=off"
if not "%WASTECHECK_CDS%"=="0" if not exist "%JSA%" if exist "%HERE%examples\wiki\dump.sql" (
  echo wastecheck: recording the classes a start loads, for faster starts ^(once per build^)... 1>&2
  "%JAVA%" %FLAGS% %QUIET% -Xint "-XX:ArchiveClassesAtExit=%JSA%" -jar "%JAR%" analyze -q --format json "%HERE%examples\wiki\dump.sql" >nul 2>&1
)
if not "%WASTECHECK_CDS%"=="0" if exist "%JSA%" set "FLAGS=%FLAGS% %QUIET% -XX:SharedArchiveFile="%JSA%""

rem Below 320 MB of input files, C1 alone, as ./wastecheck does (its comment says why; docs/benchmarks.md,
rem issue 32): for analyze and tune, the files named are summed in KB (a file of 10 digits of bytes or
rem more, or a folder, keeps C2); the values of -o/--output and --temp-dir are not input. Pipes and
rem URLs name no file: C2, as with no input at all.
set "C1FLAG="
if /i "%~1"=="analyze" call :inputsize %*
if /i "%~1"=="tune" call :inputsize %*
rem Where analyze and tune run C2, Arrow's and Netty's per-batch code is left to C1, as ./wastecheck does
rem (the file says why); not for replay and autotune, whose engine reads Arrow blocks value by value.
set "C2FLAG="
set "LOADS="
if /i "%~1"=="analyze" set "LOADS=1"
if /i "%~1"=="tune" set "LOADS=1"
if defined LOADS if not defined C1FLAG if not "%WASTECHECK_C2_DIRECTIVES%"=="0" if exist "%HERE%cli\src\main\jvm\compiler-directives.json" set "C2FLAG=-XX:+UnlockDiagnosticVMOptions "-XX:CompilerDirectivesFile=%HERE%cli\src\main\jvm\compiler-directives.json" -XX:-DisplayVMOutput"

"%JAVA%" %FLAGS% %C1FLAG% %C2FLAG% %WASTECHECK_JAVA_OPTS% -jar "%JAR%" %*
exit /b %ERRORLEVEL%

:inputsize
set /a "INPUTKB=0"
set "HASINPUT="
set "BIG="
set "SKIP="
shift
:nextarg
if "%~1"=="" goto sized
set "ARG=%~1"
if defined SKIP (set "SKIP=" & shift & goto nextarg)
if "%ARG%"=="-o" (set "SKIP=1" & shift & goto nextarg)
if "%ARG%"=="--output" (set "SKIP=1" & shift & goto nextarg)
if "%ARG%"=="--temp-dir" (set "SKIP=1" & shift & goto nextarg)
if "%ARG:~0,1%"=="-" (shift & goto nextarg)
if exist "%~1\*" (set "BIG=1") else if exist "%~1" call :addsize "%~1"
shift
goto nextarg
:addsize
set "SZ=%~z1"
if not "%SZ:~9,1%"=="" (set "BIG=1" & goto :eof)
if not "%SZ%"=="0" set "HASINPUT=1"
set /a "INPUTKB+=SZ/1024"
goto :eof
:sized
if defined BIG goto :eof
if not defined HASINPUT goto :eof
if %INPUTKB% LSS 327680 set "C1FLAG=-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Dwastecheck.jit=c1"
goto :eof
