import Foundation
import SleepAnalysis

FileHandle.standardError.write(Data("usage: sleepanalysis-bench [--hours N]\n".utf8))
exit(64)
