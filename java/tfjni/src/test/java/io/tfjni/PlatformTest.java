package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.internal.Platform;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader's choice of platform from os.name and os.arch, with the values real JVMs report
 * (OpenJDK's and Temurin's builds for each system), and what each platform's files are called.
 */
class PlatformTest {
  @Test
  void everySupportedPlatformIsRecognisedAsJvmsNameIt() {
    assertEquals(Platform.LINUX_X86_64, Platform.of("Linux", "amd64"));
    assertEquals(Platform.LINUX_X86_64, Platform.of("Linux", "x86_64"));
    assertEquals(Platform.LINUX_AARCH64, Platform.of("Linux", "aarch64"));
    assertEquals(Platform.LINUX_AARCH64, Platform.of("Linux", "arm64"));
    assertEquals(Platform.MACOS_ARM64, Platform.of("Mac OS X", "aarch64"));
    assertEquals(Platform.MACOS_ARM64, Platform.of("Darwin", "arm64"));
    assertEquals(Platform.WINDOWS_X86_64, Platform.of("Windows 11", "amd64"));
    assertEquals(Platform.WINDOWS_X86_64, Platform.of("Windows Server 2022", "amd64"));
  }

  @Test
  void thisMachineIsLinuxX8664() {
    assertEquals(Platform.LINUX_X86_64, Platform.current());
  }

  @Test
  void anUnsupportedPlatformIsNamedWithTheSupportedOnes() {
    assertUnsupported("Mac OS X", "x86_64", "macos-x86_64");
    assertUnsupported("Windows 11", "aarch64", "windows-aarch64");
    assertUnsupported("Linux", "riscv64", "linux-riscv64");
    assertUnsupported("Linux", "arm", "linux-arm");
    assertUnsupported("FreeBSD", "amd64", "freebsd-x86_64");
    assertUnsupported("", "", "unknown-unknown");
  }

  private static void assertUnsupported(String osName, String osArch, String named) {
    UnsatisfiedLinkError error =
        assertThrows(UnsatisfiedLinkError.class, () -> Platform.of(osName, osArch));
    assertEquals("tfjni: no native libraries for " + named + " (os.name '" + osName
        + "', os.arch '" + osArch + "'); tfjni runs on linux-x86_64, linux-aarch64, macos-arm64"
        + " and windows-x86_64", error.getMessage());
  }

  @Test
  void eachPlatformNamesItsDirectoriesAndLibraries() {
    assertEquals("io/tfjni/native/linux-aarch64/",
        Platform.LINUX_AARCH64.nativeResourceDirectory());
    assertEquals("io/tfjni/tensorflow/macos-arm64/",
        Platform.MACOS_ARM64.tensorFlowResourceDirectory());
    assertEquals("libtfjni.so", Platform.LINUX_X86_64.libraryFile("tfjni"));
    assertEquals("libtfjni.so", Platform.LINUX_AARCH64.libraryFile("tfjni"));
    assertEquals("libtfjni_loader.dylib", Platform.MACOS_ARM64.libraryFile("tfjni_loader"));
    assertEquals("tfjni.dll", Platform.WINDOWS_X86_64.libraryFile("tfjni"));
    assertEquals("tfjni_loader.dll", Platform.WINDOWS_X86_64.libraryFile("tfjni_loader"));
    assertEquals("io/tfjni/native/windows-x86_64/",
        Platform.WINDOWS_X86_64.nativeResourceDirectory());
    // The names in TensorFlow's own wheels for each platform.
    assertEquals(List.of("libtensorflow_framework.so.2", "libtensorflow_cc.so.2"),
        Platform.LINUX_AARCH64.tensorFlowLibraries());
    assertEquals(List.of("libtensorflow_framework.2.dylib", "libtensorflow_cc.2.dylib"),
        Platform.MACOS_ARM64.tensorFlowLibraries());
    // Windows: the C API is a DLL of TensorFlow's Python build, whose one import beyond Windows'
    // own and the Visual C++ runtime's is python311.dll, which must be loaded before it. Up to
    // 2.18 (tensorflow-intel) that DLL is the extension module; from 2.19 on (tensorflow) it is
    // _pywrap_tensorflow_common.dll.
    assertEquals(List.of("python311.dll", "_pywrap_tensorflow_internal.pyd"),
        Platform.WINDOWS_X86_64.tensorFlowLibraries("2.18.0"));
    assertEquals(List.of("python311.dll", "_pywrap_tensorflow_internal.pyd"),
        Platform.WINDOWS_X86_64.tensorFlowLibraries("2.16.2"));
    assertEquals(List.of("python311.dll", "_pywrap_tensorflow_common.dll"),
        Platform.WINDOWS_X86_64.tensorFlowLibraries("2.19.0-rc0"));
    assertEquals(List.of("python311.dll", "_pywrap_tensorflow_common.dll"),
        Platform.WINDOWS_X86_64.tensorFlowLibraries("2.21.0"));
    // Other platforms' names have not changed between those versions.
    assertEquals(Platform.LINUX_X86_64.tensorFlowLibraries("2.21.0"),
        Platform.LINUX_X86_64.tensorFlowLibraries("2.18.0"));
  }

  @Test
  void aMissingTensorFlowIsRecognisedInEachLoadersWords() {
    assertTrue(Platform.LINUX_X86_64.lacksTensorFlow("libtfjni.so: libtensorflow_cc.so.2: cannot"
        + " open shared object file: No such file or directory"));
    assertFalse(Platform.LINUX_X86_64.lacksTensorFlow("libtfjni.so: undefined symbol: TF_Foo"));
    // Windows names no file: HotSpot's message when a DLL's import is missing.
    assertTrue(Platform.WINDOWS_X86_64.lacksTensorFlow(
        "C:\\Temp\\tfjni1\\tfjni.dll: Can't find dependent libraries"));
    assertFalse(Platform.WINDOWS_X86_64.lacksTensorFlow(
        "C:\\Temp\\tfjni1\\tfjni.dll: The specified procedure could not be found"));
    assertFalse(Platform.WINDOWS_X86_64.lacksTensorFlow(null));
  }
}
